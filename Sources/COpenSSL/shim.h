#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
/* The 3.0 API only: deprecated 1.x calls vanish from Swift. */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* Each wrapper below exists because the C name is a function-like or expression macro, which Swift does not import. */
static inline void COpenSSL_free(void *p) { OPENSSL_free(p); }
static inline int COpenSSL_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *COpenSSL_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline STACK_OF(X509) *COpenSSL_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int COpenSSL_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline void COpenSSL_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
static inline PKCS7_SIGNER_INFO *COpenSSL_sk_PKCS7_SIGNER_INFO_value(const STACK_OF(PKCS7_SIGNER_INFO) *sk, int i) {
    return sk_PKCS7_SIGNER_INFO_value(sk, i);
}
static inline long COpenSSL_BIO_get_mem_data(BIO *b, char **out) { return BIO_get_mem_data(b, out); }
static inline unsigned long COpenSSL_version_number(void) { return OPENSSL_VERSION_NUMBER; }
#endif
