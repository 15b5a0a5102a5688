// What a still camera sees behind everything that moves: the background and the ground planes
// lit without shadows, kept in an offscreen framebuffer (colour, depth and stencil in the
// target's own formats) and copied into each frame instead of drawn again. Between
// framebuffers of one size and format the copy is a memory copy on a software renderer, a
// fraction of shading the ground; the renderer draws the ground again with its shadows only
// where a shadow can fall (SceneRenderer::shadowedRect).
//
// The renderer keys the backdrop by everything it depends on (view, size, background, the
// planes); the cache holds one backdrop. It serves single-sampled targets whose depth format it
// can mirror, and gives up for good if a copy fails. Written against libepoxy like the rest of
// the renderer; the header names no GL types.
#pragma once

#include <vector>

namespace drape {

class BackdropCache {
public:
    BackdropCache() = default;
    BackdropCache(const BackdropCache &) = delete;
    BackdropCache &operator=(const BackdropCache &) = delete;

    /// True when the cache holds the backdrop for `key`.
    bool holds(const std::vector<float> &key) const { return m_valid && key == m_key; }
    /// Makes (or resizes) the cache's framebuffer for the bound target `framebuffer`,
    /// `widthPx` × `heightPx`, and binds it to draw the backdrop into; false, with the target
    /// still bound, when the target cannot be mirrored (multisampled, another depth format).
    bool begin(unsigned framebuffer, int widthPx, int heightPx);
    /// The backdrop for `key` is drawn.
    void end(std::vector<float> key);
    /// Copies the backdrop (colour, depth and stencil) into `framebuffer` and binds it; false,
    /// forgetting what it held, when the copy failed.
    bool copyTo(unsigned framebuffer);
    /// Forgets the backdrop (the next frame draws everything).
    void invalidate() { m_valid = false; }
    /// Frees the GL objects; the context that made them must be current.
    void release();

private:
    unsigned m_framebuffer = 0;
    unsigned m_color = 0; ///< texture (as the viewport's own framebuffer)
    unsigned m_depth = 0; ///< renderbuffer
    int m_width = 0, m_height = 0;
    int m_depthFormat = 0; ///< GL internal format of m_depth
    bool m_stencil = false;
    bool m_valid = false;
    bool m_unusable = false; ///< a copy failed: the target cannot take one
    std::vector<float> m_key;
};

} // namespace drape
