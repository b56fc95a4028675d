import CLibnotify

/// Takes the message out of a GError set by a GLib call and frees the error.
///
/// ```swift
/// var error: UnsafeMutablePointer<GError>?
/// if notify_notification_show(handle, &error) == 0 { throw DeliveryError(takeMessage(of: &error)) }
/// ```
func takeMessage(of error: inout UnsafeMutablePointer<GError>?, orElse fallback: String = "unknown error") -> String {
    guard let failure = error else { return fallback }
    let message = failure.pointee.message.map { String(cString: $0) } ?? fallback
    g_error_free(failure)
    error = nil
    return message
}

/// Copies a string GLib handed over (transfer full) and frees it.
func takeString(_ string: UnsafeMutablePointer<CChar>?) -> String? {
    guard let string else { return nil }
    defer { g_free(string) }
    return String(cString: string)
}
