// libcurl for atpad's URL sources (Debian: libcurl4-openssl-dev).
//
// `curl_easy_setopt` and `curl_easy_getinfo` are variadic, which Swift cannot call; these
// typed, stateless `static inline` wrappers are the whole bridge.
#ifndef ATPAD_CURL_SHIM_H
#define ATPAD_CURL_SHIM_H
#include <curl/curl.h>

typedef size_t (*atpad_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode atpad_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode atpad_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode atpad_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode atpad_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode atpad_curl_set_write_function(CURL *handle, atpad_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode atpad_curl_set_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline long atpad_curl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif
