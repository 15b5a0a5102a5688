#include "jsonguard.h"

#include "base/printable.h"

#include <algorithm>

namespace drape {

JsonScanError scanJsonText(std::string_view text, int maxDepth)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\0')
            return { i, "a NUL byte; a scene file is UTF-8 text" };
        if (inString) {
            if (c == '\\')
                ++i; // skip the escaped character (a NUL there is caught by the parser as a control
                     // character)
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return { i,
                    "nested deeper than " + std::to_string(maxDepth) + " levels of arrays and objects" };
        } else if (c == ']' || c == '}') {
            depth = std::max(0, depth - 1);
        }
    }
    return {};
}

std::string lineColumn(std::string_view text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    std::size_t line = 1, lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return std::to_string(line) + ":" + std::to_string(offset - lineStart + 1);
}

std::string DuplicateKeys::path() const
{
    std::string p;
    for (const Frame &f : m_frames)
        p += "/" + (f.object ? printable(f.key, 64) : std::to_string(f.index));
    return p;
}

void DuplicateKeys::valueDone()
{
    if (!m_frames.empty() && !m_frames.back().object)
        ++m_frames.back().index;
}

bool DuplicateKeys::operator()(int, nlohmann::json::parse_event_t event, scenejson::Json &parsed)
{
    using E = nlohmann::json::parse_event_t;
    switch (event) {
    case E::object_start:
    case E::array_start:
        m_frames.push_back(Frame { event == E::object_start, {}, {}, 0 });
        break;
    case E::object_end:
    case E::array_end:
        if (!m_frames.empty())
            m_frames.pop_back();
        valueDone();
        break;
    case E::key: {
        if (m_frames.empty() || !parsed.is_string())
            break;
        Frame &f = m_frames.back();
        f.key = parsed.get<std::string>();
        if (f.keys.insert(f.key).second)
            break;
        if (m_frames.size() == 1 && std::find(m_refused.begin(), m_refused.end(), f.key) != m_refused.end())
            JsonReader::fail(path(), "given twice; a scene names its " + f.key + " once");
        warnings.push_back(path() + ": duplicate key, the last value is used");
        break;
    }
    case E::value:
        valueDone();
        break;
    }
    return true;
}

} // namespace drape
