// Guards around nlohmann's parser for text that may be hostile:
//  - scanJsonText: one pass over the raw bytes before parsing that refuses NUL bytes (the
//    parser would stop there and silently ignore the rest) and nesting deeper than a limit
//    (anything that walks the value recursively, such as dump(), would overflow the stack
//    at ~80,000 levels), with the line and column of the offending byte.
//  - DuplicateKeys: a parser callback that sees every key with its JSON path and reports a
//    repeated one (the parser itself keeps the last value without a word).
#pragma once

#include "jsonreader.h"

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace drape {

struct JsonScanError {
    std::size_t offset = 0; ///< byte offset of the problem
    std::string message; ///< empty when the text passed
};

/// Checks `text` for NUL bytes and for arrays/objects nested deeper than `maxDepth`.
JsonScanError scanJsonText(std::string_view text, int maxDepth);

/// 1-based "line:column" of byte `offset` in `text`.
std::string lineColumn(std::string_view text, std::size_t offset);

/// Follows the parser's events to know the JSON path of each key, and records repeated keys:
/// at the top level a repeated name in `refused` throws JsonReadError, any other repeat is
/// added to `warnings` ("/world/gravity: duplicate key, the last value is used").
class DuplicateKeys {
public:
    explicit DuplicateKeys(std::vector<std::string> refused)
        : m_refused(std::move(refused))
    { }

    /// The nlohmann parser callback; always keeps the value.
    bool operator()(int depth, nlohmann::json::parse_event_t event, scenejson::Json &parsed);

    std::vector<std::string> warnings;

private:
    struct Frame {
        bool object = false;
        std::set<std::string> keys;
        std::string key;
        std::size_t index = 0;
    };
    std::string path() const;
    void valueDone();

    std::vector<std::string> m_refused;
    std::vector<Frame> m_frames;
};

} // namespace drape
