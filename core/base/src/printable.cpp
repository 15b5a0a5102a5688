#include "base/printable.h"

#include <cstdint>

namespace drape {

namespace {

// Length of the valid UTF-8 sequence starting at text[i] (1..4), or 0 when the bytes there
// are not valid UTF-8 (stray continuation, overlong form, surrogate, past U+10FFFF, cut off).
std::size_t utf8Length(std::string_view text, std::size_t i, std::uint32_t *codePoint)
{
    const auto byte = [&](std::size_t k) { return std::uint8_t(text[k]); };
    const std::uint8_t b0 = byte(i);
    if (b0 < 0x80) {
        *codePoint = b0;
        return 1;
    }
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if ((b0 & 0xe0) == 0xc0) {
        n = 2;
        cp = b0 & 0x1f;
    } else if ((b0 & 0xf0) == 0xe0) {
        n = 3;
        cp = b0 & 0x0f;
    } else if ((b0 & 0xf8) == 0xf0) {
        n = 4;
        cp = b0 & 0x07;
    } else {
        return 0;
    }
    if (i + n > text.size())
        return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3f);
    }
    const std::uint32_t minimum[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < minimum[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    *codePoint = cp;
    return n;
}

bool isControl(std::uint32_t cp)
{
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0);
}

std::string hex2(unsigned v)
{
    const char *digits = "0123456789abcdef";
    return { digits[(v >> 4) & 0xf], digits[v & 0xf] };
}

// Walks `text`, appending each valid printable character as is and `replace(bytes, cp)` for
// the rest, until the output would pass `maxBytes`.
template <typename Replace>
std::string transform(std::string_view text, std::size_t maxBytes, Replace replace)
{
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        std::uint32_t cp = 0;
        const std::size_t n = utf8Length(text, i, &cp);
        const std::string piece = n == 0 ? replace(std::uint8_t(text[i]), false)
            : isControl(cp)              ? replace(cp, true)
                                         : std::string(text.substr(i, n));
        if (out.size() + piece.size() > maxBytes) {
            out += "...";
            return out;
        }
        out += piece;
        i += n == 0 ? 1 : n;
    }
    return out;
}

} // namespace

std::string printable(std::string_view text, std::size_t maxBytes)
{
    return transform(text, maxBytes, [](std::uint32_t v, bool codePoint) -> std::string {
        if (!codePoint)
            return "\\x" + hex2(v);
        switch (v) {
        case '\n':
            return "\\n";
        case '\t':
            return "\\t";
        case '\r':
            return "\\r";
        default:
            return v < 0x80 ? "\\x" + hex2(v) : "\\u00" + hex2(v);
        }
    });
}

std::string quotedValue(std::string_view text, std::size_t maxBytes)
{
    return "\"" + printable(text, maxBytes) + "\"";
}

std::string singleLine(std::string_view text, std::size_t maxBytes)
{
    return transform(text, maxBytes, [](std::uint32_t, bool) { return std::string("_"); });
}

} // namespace drape
