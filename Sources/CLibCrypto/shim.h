// OpenSSL's message digests (libcrypto, Debian's libssl-dev): only the EVP interface, which is
// not deprecated in OpenSSL 3.
#include <openssl/evp.h>
