#ifndef CBENCHMARKOPENSSL_SHIM_H
#define CBENCHMARKOPENSSL_SHIM_H
/* OpenSSL for the benchmarks' baselines (PKCS7_verify, PKCS7_sign, EVP_DigestVerify), the 3.0 API only. */
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

/* Each wrapper below exists because the C name is a function-like macro, which Swift does not import. */
static inline STACK_OF(X509) *CBenchmarkOpenSSL_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int CBenchmarkOpenSSL_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline void CBenchmarkOpenSSL_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
static inline int CBenchmarkOpenSSL_sk_PKCS7_SIGNER_INFO_num(const STACK_OF(PKCS7_SIGNER_INFO) *sk) {
    return sk_PKCS7_SIGNER_INFO_num(sk);
}
static inline PKCS7_SIGNER_INFO *CBenchmarkOpenSSL_sk_PKCS7_SIGNER_INFO_value(
    const STACK_OF(PKCS7_SIGNER_INFO) *sk, int i) {
    return sk_PKCS7_SIGNER_INFO_value(sk, i);
}
#endif
