// libcurl's declarations for atpad's URL sources (Debian: libcurl4-openssl-dev).
//
// atpad does not link libcurl: it opens libcurl.so.4 with dlopen at the first URL query
// (AtpadDirectory/LibCurl.swift), so a start of atpad that asks no URL does not pay for
// loading libcurl and the thirty libraries it brings. This header gives the types and
// constants, and calls the variadic `curl_easy_setopt` / `curl_easy_getinfo` — which
// Swift cannot call — through the pointers found by dlsym, with their real variadic type.
// Every function here is a stateless `static inline` one.
#ifndef ATPAD_CURL_SHIM_H
#define ATPAD_CURL_SHIM_H
#include <curl/curl.h>

typedef size_t (*atpad_curl_write_callback)(char *data, size_t size, size_t count, void *context);
typedef CURLcode (*atpad_curl_setopt_function)(CURL *handle, CURLoption option, ...);
typedef CURLcode (*atpad_curl_getinfo_function)(CURL *handle, CURLINFO info, ...);

static inline CURLcode atpad_curl_set_long(void *setopt, CURL *handle, CURLoption option, long value) {
    return ((atpad_curl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode atpad_curl_set_string(void *setopt, CURL *handle, CURLoption option, const char *value) {
    return ((atpad_curl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode atpad_curl_set_pointer(void *setopt, CURL *handle, CURLoption option, void *value) {
    return ((atpad_curl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode atpad_curl_set_slist(void *setopt, CURL *handle, CURLoption option, struct curl_slist *value) {
    return ((atpad_curl_setopt_function)setopt)(handle, option, value);
}

static inline CURLcode atpad_curl_set_write_function(void *setopt, CURL *handle, atpad_curl_write_callback callback) {
    return ((atpad_curl_setopt_function)setopt)(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode atpad_curl_set_header_function(void *setopt, CURL *handle, atpad_curl_write_callback callback) {
    return ((atpad_curl_setopt_function)setopt)(handle, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode atpad_curl_set_off(void *setopt, CURL *handle, CURLoption option, curl_off_t value) {
    return ((atpad_curl_setopt_function)setopt)(handle, option, value);
}

static inline long atpad_curl_response_code(void *getinfo, CURL *handle) {
    long code = 0;
    ((atpad_curl_getinfo_function)getinfo)(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

static inline long atpad_curl_info_long(void *getinfo, CURL *handle, CURLINFO info) {
    long value = 0;
    ((atpad_curl_getinfo_function)getinfo)(handle, info, &value);
    return value;
}

#endif
