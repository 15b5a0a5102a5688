// Text from files and users, made safe to show: scene files travel, and a name or key with
// an ESC sequence would otherwise retitle or clear the terminal, or fake a message; a newline
// in a name would add statements to an OBJ export. Every message built from file content and
// every user string written into an export goes through one of these.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace drape {

/// `text` with control characters (C0, DEL, C1) and invalid UTF-8 bytes escaped as \n, \t,
/// \xNN or \u00NN, cut to at most `maxBytes` bytes of output (then ending in "..."). Valid
/// printable UTF-8 passes unchanged.
std::string printable(std::string_view text, std::size_t maxBytes = 4096);

/// `text` in double quotes, escaped as printable() and cut to a short prefix: how a value
/// from a file is quoted in a message (a 100,000-digit number is not echoed whole).
std::string quotedValue(std::string_view text, std::size_t maxBytes = 48);

/// `text` as one line for a line-based export format (an OBJ `o` statement, a header field):
/// every control character and invalid UTF-8 byte becomes '_', the rest is kept.
std::string singleLine(std::string_view text, std::size_t maxBytes = 256);

} // namespace drape
