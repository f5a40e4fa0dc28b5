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
#include <openssl/http.h>
#include <openssl/httperr.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/ssl.h>
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
static inline long COpenSSL_BIO_set_nbio(BIO *b, long on) { return BIO_set_nbio(b, on); }
static inline long COpenSSL_BIO_do_connect(BIO *b) { return BIO_do_connect(b); }
static inline long COpenSSL_BIO_do_handshake(BIO *b) { return BIO_do_handshake(b); }
static inline int COpenSSL_BIO_get_fd(BIO *b) { return BIO_get_fd(b, NULL); }
static inline int COpenSSL_BIO_should_retry(BIO *b) { return BIO_should_retry(b); }
static inline int COpenSSL_BIO_should_write(BIO *b) { return BIO_should_write(b); }
static inline SSL *COpenSSL_BIO_get_ssl(BIO *b) {
    SSL *ssl = NULL;
    BIO_get_ssl(b, &ssl);
    return ssl;
}
static inline long COpenSSL_SSL_set_tlsext_host_name(SSL *s, const char *name) {
    return SSL_set_tlsext_host_name(s, name);
}
static inline void COpenSSL_sk_CONF_VALUE_free(STACK_OF(CONF_VALUE) *sk) { sk_CONF_VALUE_pop_free(sk, X509V3_conf_free); }
#endif
