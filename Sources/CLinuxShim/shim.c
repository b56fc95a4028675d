// Header-only shim; SwiftPM needs one source file in a C target.
