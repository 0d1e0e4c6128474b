// The system's OpenSSL, for TLS to etcd members on Linux (see TLSConnection.swift).
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
