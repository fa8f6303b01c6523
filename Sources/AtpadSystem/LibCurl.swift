import CCurl
import FoundationEssentials
import Glibc

/// libcurl, opened with `dlopen` at the first URL query rather than linked: linking it
/// loads libcurl and some thirty libraries at every start of atpad, while most starts ask
/// no URL. Without libcurl installed, a URL
/// source fails with a line saying so and everything else works.
package struct LibCurl: @unchecked Sendable {
    package typealias Easy = UnsafeMutableRawPointer
    package typealias Multi = OpaquePointer

    package let easyInit: @convention(c) () -> Easy?
    package let easyCleanup: @convention(c) (Easy?) -> Void
    package let easyStrerror: @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    /// `curl_easy_setopt` and `curl_easy_getinfo`, called through the shim's typed wrappers.
    package let setopt: UnsafeMutableRawPointer
    package let getinfo: UnsafeMutableRawPointer
    package let multiInit: @convention(c) () -> Multi?
    package let multiCleanup: @convention(c) (Multi?) -> CURLMcode
    package let multiAddHandle: @convention(c) (Multi?, Easy?) -> CURLMcode
    package let multiRemoveHandle: @convention(c) (Multi?, Easy?) -> CURLMcode
    package let multiPerform: @convention(c) (Multi?, UnsafeMutablePointer<Int32>?) -> CURLMcode
    package let multiPoll: @convention(c) (Multi?, UnsafeMutablePointer<curl_waitfd>?, UInt32, Int32, UnsafeMutablePointer<Int32>?) -> CURLMcode
    package let multiInfoRead: @convention(c) (Multi?, UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<CURLMsg>?
    package let slistAppend: @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
    package let slistFreeAll: @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void

    /// libcurl, opened and initialised once (Swift runs a global's initialiser exactly
    /// once, from whichever thread comes first); or why it could not be.
    package static let shared: Result<LibCurl, SourceError> = load()

    private static func load() -> Result<LibCurl, SourceError> {
        guard let library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(SourceError("URL sources need libcurl (Debian: libcurl4), which could not be loaded"))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        guard let globalInit = symbol("curl_global_init", as: (@convention(c) (Int) -> CURLcode).self),
              let easyInit = symbol("curl_easy_init", as: (@convention(c) () -> Easy?).self),
              let easyCleanup = symbol("curl_easy_cleanup", as: (@convention(c) (Easy?) -> Void).self),
              let easyStrerror = symbol("curl_easy_strerror", as: (@convention(c) (CURLcode) -> UnsafePointer<CChar>?).self),
              let setopt = dlsym(library, "curl_easy_setopt"),
              let getinfo = dlsym(library, "curl_easy_getinfo"),
              let multiInit = symbol("curl_multi_init", as: (@convention(c) () -> Multi?).self),
              let multiCleanup = symbol("curl_multi_cleanup", as: (@convention(c) (Multi?) -> CURLMcode).self),
              let multiAddHandle = symbol("curl_multi_add_handle", as: (@convention(c) (Multi?, Easy?) -> CURLMcode).self),
              let multiRemoveHandle = symbol("curl_multi_remove_handle", as: (@convention(c) (Multi?, Easy?) -> CURLMcode).self),
              let multiPerform = symbol("curl_multi_perform",
                                        as: (@convention(c) (Multi?, UnsafeMutablePointer<Int32>?) -> CURLMcode).self),
              let multiPoll = symbol("curl_multi_poll", as: (@convention(c) (
                  Multi?, UnsafeMutablePointer<curl_waitfd>?, UInt32, Int32, UnsafeMutablePointer<Int32>?) -> CURLMcode).self),
              let multiInfoRead = symbol("curl_multi_info_read", as: (@convention(c) (
                  Multi?, UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<CURLMsg>?).self),
              let slistAppend = symbol("curl_slist_append", as: (@convention(c) (
                  UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?).self),
              let slistFreeAll = symbol("curl_slist_free_all", as: (@convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void).self)
        else {
            return .failure(SourceError("URL sources need libcurl 7.66 or later; the one installed lacks a function"))
        }
        guard globalInit(Int(CURL_GLOBAL_ALL)) == CURLE_OK else {
            return .failure(SourceError("libcurl could not be initialised"))
        }
        return .success(LibCurl(
            easyInit: easyInit, easyCleanup: easyCleanup, easyStrerror: easyStrerror, setopt: setopt, getinfo: getinfo,
            multiInit: multiInit, multiCleanup: multiCleanup, multiAddHandle: multiAddHandle,
            multiRemoveHandle: multiRemoveHandle, multiPerform: multiPerform, multiPoll: multiPoll,
            multiInfoRead: multiInfoRead, slistAppend: slistAppend, slistFreeAll: slistFreeAll))
    }

    // MARK: - Options, through the shim's wrappers of the variadic setopt

    package func set(_ easy: Easy, _ option: CURLoption, _ value: Int) { _ = atpad_curl_set_long(setopt, easy, option, value) }
    package func set(_ easy: Easy, _ option: CURLoption, _ value: String) { _ = atpad_curl_set_string(setopt, easy, option, value) }
    package func set(_ easy: Easy, _ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
        _ = atpad_curl_set_pointer(setopt, easy, option, pointer)
    }
    package func set(_ easy: Easy, _ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) {
        _ = atpad_curl_set_slist(setopt, easy, option, list)
    }
    package func set(_ easy: Easy, _ option: CURLoption, offset: curl_off_t) { _ = atpad_curl_set_off(setopt, easy, option, offset) }
    package func setWriteFunction(_ easy: Easy, _ callback: atpad_curl_write_callback) {
        _ = atpad_curl_set_write_function(setopt, easy, callback)
    }
    package func setHeaderFunction(_ easy: Easy, _ callback: atpad_curl_write_callback) {
        _ = atpad_curl_set_header_function(setopt, easy, callback)
    }
    package func responseCode(_ easy: Easy) -> Int { atpad_curl_response_code(getinfo, easy) }
    /// How many bytes of requests the transfer sent (0: the request never left).
    package func requestSize(_ easy: Easy) -> Int { atpad_curl_info_long(getinfo, easy, CURLINFO_REQUEST_SIZE) }
}
