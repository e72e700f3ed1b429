#ifndef WALLET_ORDERS_COPENSSL_SHIMS_H
#define WALLET_ORDERS_COPENSSL_SHIMS_H

// Function wrappers for OpenSSL *macros* that Swift cannot import, and one-to-one wrappers of
// the ENGINE calls a PKCS#11 key needs (deprecated in OpenSSL 3.0, whose replacement, the
// pkcs11-provider, Debian 12 does not package; wrapped so that Swift sees no deprecated call).
// Nothing else belongs here: all logic lives in Swift.

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/crypto.h>
#include <openssl/engine.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/ui.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static inline int wo_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *wo_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
static inline STACK_OF(X509) *wo_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int wo_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate) { return sk_X509_push(stack, certificate); }
static inline void wo_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }
static inline void wo_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

static inline int wo_sk_CMS_SignerInfo_num(const STACK_OF(CMS_SignerInfo) *stack) { return sk_CMS_SignerInfo_num(stack); }
static inline CMS_SignerInfo *wo_sk_CMS_SignerInfo_value(const STACK_OF(CMS_SignerInfo) *stack, int index) {
    return sk_CMS_SignerInfo_value(stack, index);
}

static inline int wo_sk_ASN1_OBJECT_num(const STACK_OF(ASN1_OBJECT) *stack) { return sk_ASN1_OBJECT_num(stack); }
static inline ASN1_OBJECT *wo_sk_ASN1_OBJECT_value(const STACK_OF(ASN1_OBJECT) *stack, int index) {
    return sk_ASN1_OBJECT_value(stack, index);
}

static inline unsigned long wo_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

static inline void wo_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }
static inline long wo_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static inline ENGINE *wo_ENGINE_by_id(const char *id) { return ENGINE_by_id(id); }
static inline int wo_ENGINE_ctrl_cmd_string(ENGINE *engine, const char *name, const char *argument) {
    return ENGINE_ctrl_cmd_string(engine, name, argument, 0);
}
static inline int wo_ENGINE_init(ENGINE *engine) { return ENGINE_init(engine); }
static inline int wo_ENGINE_free(ENGINE *engine) { return ENGINE_free(engine); }
static inline int wo_ENGINE_finish(ENGINE *engine) { return ENGINE_finish(engine); }
static inline EVP_PKEY *wo_ENGINE_load_private_key(ENGINE *engine, const char *identifier, UI_METHOD *ui) {
    return ENGINE_load_private_key(engine, identifier, ui, NULL);
}
#pragma GCC diagnostic pop

#endif
