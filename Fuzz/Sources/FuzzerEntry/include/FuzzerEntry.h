#ifndef FUZZER_ENTRY_H
#define FUZZER_ENTRY_H
/* Nothing to import: this target only supplies the executable's entry point (see FuzzerEntry.c). */
#endif
