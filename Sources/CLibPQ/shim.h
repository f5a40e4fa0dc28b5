#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
#include <libpq-fe.h>

/* The PG_DIAG_* field codes are character literals, which Swift does not import. */
static inline int CLibPQ_diagSQLState(void) { return PG_DIAG_SQLSTATE; }
static inline int CLibPQ_diagMessagePrimary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int CLibPQ_diagMessageDetail(void) { return PG_DIAG_MESSAGE_DETAIL; }
#endif
