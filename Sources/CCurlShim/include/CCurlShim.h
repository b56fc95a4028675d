// libcurl's easy interface for Swift: curl_easy_setopt is variadic, which Swift cannot call,
// so each value type gets a typed wrapper here.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H
#include <curl/curl.h>

CURLcode chime_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode chime_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode chime_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode chime_curl_setopt_write(CURL *handle, CURLoption option,
                                 size_t (*callback)(char *, size_t, size_t, void *));
CURLcode chime_curl_response_code(CURL *handle, long *code);

#endif
