#ifndef CSQLITE_RAW_SHIM_H
#define CSQLITE_RAW_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT and SQLITE_STATIC are casts of integers to function pointers, which Swift cannot import. */
static inline sqlite3_destructor_type CSQLiteRaw_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type CSQLiteRaw_static(void) { return SQLITE_STATIC; }
#endif
