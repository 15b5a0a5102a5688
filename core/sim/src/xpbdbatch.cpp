// Batched XPBD distance-constraint kernel; see xpbdbatch.h for the layout and solverxpbd.cpp
// for the constraint step (Macklin et al. 2016, eq. 18 with the damping of §3.5).
#include "xpbdbatch.h"

#include "xpbdkernel.h"
#include "xpbdworker.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <utility>

namespace drape::detail {

void SlotSources::setBlock(std::size_t block, const std::uint32_t (&in)[kLanes])
{
    // The common cases first, without branches: eight live lanes in a progression in lane
    // order or in dealt order (what a layout and a renumbering mostly give; lanes 0 and 1
    // are ordinals 0 and 1 in both).
    const std::uint32_t rise = in[1] - in[0];
    std::uint32_t all = 0, stepping = 0, dealing = 0;
    for (std::uint32_t l = 0; l < kLanes; ++l) {
        all |= std::uint32_t(in[l] == kNone) << l;
        stepping |= std::uint32_t(in[l] != in[0] + l * rise) << l;
        dealing |= std::uint32_t(in[l] != in[0] + dealtOrdinal(l) * rise) << l;
    }
    if (all == 0 && (stepping == 0 || dealing == 0) && stepHeld(rise) && m_step[block] != kListed) {
        m_live[block] = 0xff;
        m_first[block] = in[0];
        m_step[block] = stepping == 0 ? rise : rise ^ kDealtOrder;
        return;
    }
    std::uint32_t live = 0;
    for (std::uint32_t l = 0; l < kLanes; ++l)
        live |= std::uint32_t(in[l] != kNone) << l;
    // A progression through the live lanes in lane order or in dealt order: start + ordinal(l)
    // step = in[l], modulo 2^32, from the live lanes of the two lowest ordinals.
    const auto progression = [&](auto ordinal, std::uint32_t &start, std::uint32_t &step) {
        int first = -1, second = -1;
        for (std::uint32_t o = 0; o < kLanes; ++o) {
            if (!((live >> ordinal(o)) & 1u))
                continue;
            if (first < 0)
                first = int(o);
            else if (second < 0)
                second = int(o);
        }
        step = 0;
        if (second >= 0) {
            const std::int64_t gain = std::int64_t(in[ordinal(std::uint32_t(second))])
                - std::int64_t(in[ordinal(std::uint32_t(first))]);
            const std::int64_t run = second - first;
            if (gain % run != 0)
                return false;
            step = std::uint32_t(gain / run); // modulo 2^32
        }
        start = first >= 0 ? in[ordinal(std::uint32_t(first))] - std::uint32_t(first) * step : 0;
        if (!stepHeld(step))
            return false;
        for (std::uint32_t o = 0; o < kLanes; ++o) {
            const std::uint32_t l = ordinal(o);
            if (((live >> l) & 1u) && start + o * step != in[l])
                return false;
        }
        return true;
    };
    std::uint32_t start = 0, step = 0;
    bool held = progression([](std::uint32_t o) { return o; }, start, step);
    if (!held && progression([](std::uint32_t o) { return dealtOrdinal(o); }, start, step)) {
        held = true;
        step ^= kDealtOrder;
    }

    const bool listed = m_step[block] == kListed;
    m_live[block] = std::uint8_t(live);
    if (held) {
        if (listed)
            m_orphaned += kLanes;
        m_first[block] = start;
        m_step[block] = step;
        // Compacted once the orphans are half the list and at least as many as the blocks:
        // each block turned adds kLanes of them, so a compaction (one pass over the blocks
        // and the list) comes after at least blocks / kLanes turns, a few slots' work each.
        if (2 * m_orphaned > m_listed.size() && m_orphaned >= m_live.size())
            compactListed();
        return;
    }
    if (!listed) {
        m_first[block] = std::uint32_t(m_listed.size());
        m_step[block] = kListed;
        m_listed.insert(m_listed.end(), in, in + kLanes);
        return;
    }
    std::copy(in, in + kLanes, m_listed.begin() + std::ptrdiff_t(m_first[block]));
}

void SlotSources::compactListed()
{
    std::vector<std::uint32_t> kept;
    kept.reserve(m_listed.size() - m_orphaned);
    for (std::size_t block = 0; block < m_live.size(); ++block) {
        if (m_step[block] != kListed)
            continue;
        const auto from = m_listed.begin() + std::ptrdiff_t(m_first[block]);
        m_first[block] = std::uint32_t(kept.size());
        kept.insert(kept.end(), from, from + kLanes);
    }
    m_listed.swap(kept);
    m_orphaned = 0;
}

std::vector<std::uint32_t> SlotSources::flat() const
{
    std::vector<std::uint32_t> out(size());
    for (std::size_t b = 0; b < m_live.size(); ++b) {
        std::uint32_t lanes[kLanes];
        block(b, lanes);
        std::copy(lanes, lanes + kLanes, out.begin() + std::ptrdiff_t(b * kLanes));
    }
    return out;
}

void SlotSources::resize(std::size_t slots)
{
    const std::size_t blocks = slots / kLanes;
    for (std::size_t b = blocks; b < m_live.size(); ++b)
        m_orphaned += m_step[b] == kListed ? kLanes : 0;
    if (blocks == 0) {
        std::vector<std::uint32_t>().swap(m_listed);
        m_orphaned = 0;
    }
    m_first.resize(blocks, 0);
    m_step.resize(blocks, 0);
    m_live.resize(blocks, 0);
}

void SlotSources::assign(const std::vector<std::uint32_t> &records)
{
    resize(0);
    resize(records.size());
    for (std::size_t b = 0; b < m_live.size(); ++b) {
        std::uint32_t lanes[kLanes];
        std::copy_n(records.begin() + std::ptrdiff_t(b * kLanes), kLanes, lanes);
        setBlock(b, lanes);
    }
    shrinkToFit();
}

namespace {

// The window patterns laid out so far (XpbdBatches::windowPattern), by their nibbles.
using PatternIndex = std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint16_t>;

// The windows and the nibble tables of a window block whose lanes' ends a[l], b[l] (real or
// carried) cover [base0, base0 + 8) and [base1, base1 + 8) once each (see
// XpbdBatches::blockFetch), its pattern taken from `patterns` or added to them. False when
// it is a new pattern and the table is full, or when its windows lie too far apart for
// windowStep: the block must then be gathered.
bool setWindows(XpbdBatches &out, PatternIndex &patterns, std::size_t block, std::uint32_t base0,
    std::uint32_t base1, const std::uint32_t *a, const std::uint32_t *b)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    // Window 1 is held as a 16-bit step from window 0 (XpbdBatches::windowStep).
    const auto step = std::int64_t(base1) - std::int64_t(base0);
    if (step < std::numeric_limits<std::int16_t>::min() || step > std::numeric_limits<std::int16_t>::max())
        return false;
    std::uint64_t lanes = 0, slots = 0;
    for (std::uint32_t l = 0; l < L; ++l) {
        for (std::uint32_t end = 0; end < 2; ++end) {
            const std::uint32_t particle = (end ? b : a)[l];
            const std::uint32_t window = particle >= base1 && particle < base1 + L ? 1 : 0;
            const std::uint32_t pos = particle - (window ? base1 : base0);
            lanes |= std::uint64_t(window << 3 | pos) << (4 * (end * L + l));
            slots |= std::uint64_t(end << 3 | l) << (4 * (window * L + pos));
        }
    }
    const auto [it, added] = patterns.try_emplace({ lanes, slots }, std::uint16_t(out.patternLanes.size()));
    if (added) {
        if (out.patternLanes.size() >= std::min<std::size_t>(out.maxPatterns, std::size_t(1) << 16)) {
            patterns.erase(it);
            return false;
        }
        out.patternLanes.push_back(lanes);
        out.patternSlots.push_back(slots);
    }
    out.windowBase[block] = base0;
    out.windowStep[block] = std::int16_t(std::int32_t(base1 - base0));
    out.windowPattern[block] = it->second;
    return true;
}

constexpr std::uint32_t kNone = ~std::uint32_t(0);

std::uint32_t bitsOf(float v)
{
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
}

// remapXpbdBatches() lays the streams out again once the padding it added passes
// 1/kMaxAddedPaddingDivisor of the slots.
constexpr std::size_t kMaxAddedPaddingDivisor = 16;

// The two-thread pass's work items from the colours' slot ranges (XpbdBatches::chunkBegin).
void setChunks(XpbdBatches &out)
{
    const std::size_t colours = out.start.size() - 1;
    const auto stepOf = [&out](std::size_t c) {
        return out.conflictFree[c] ? XpbdBatches::kChunkSlots : out.start[c + 1] - out.start[c];
    };
    // Counted first, so that the tables take exactly their size.
    std::size_t chunks = 0;
    for (std::size_t c = 0; c < colours; ++c)
        for (std::uint32_t k = out.start[c]; k < out.start[c + 1]; k += stepOf(c))
            ++chunks;
    if (out.chunkColour.capacity() != chunks) {
        std::vector<std::uint32_t>().swap(out.chunkColour);
        std::vector<std::uint32_t>().swap(out.chunkBegin);
        out.chunkColour.reserve(chunks);
        out.chunkBegin.reserve(chunks + 1);
    }
    out.chunkBegin.clear();
    out.chunkColour.clear();
    out.colourFirstChunk.assign(colours + 1, 0);
    for (std::size_t c = 0; c < colours; ++c) {
        out.colourFirstChunk[c] = std::uint32_t(out.chunkColour.size());
        const std::uint32_t step = stepOf(c);
        for (std::uint32_t k = out.start[c]; k < out.start[c + 1]; k += step) {
            out.chunkBegin.push_back(k);
            out.chunkColour.push_back(std::uint32_t(c));
        }
    }
    out.colourFirstChunk[colours] = std::uint32_t(out.chunkColour.size());
    out.chunkBegin.push_back(out.start[colours]);
}

// Sizes every per-slot and per-block stream for `slots` slots; slots added are padding (NaN
// span: the kernels' length test fails whatever particles they carry, so they move nothing;
// no constraint) in gathered blocks whose ends are particle 0 (unless `gatherNew` is false:
// then the caller sets the new blocks' ends), those already there keep their values.
void resizeStreams(XpbdBatches &out, std::size_t slots, bool gatherNew = true)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::size_t oldBlocks = out.blockFetch.size();
    out.source.resize(slots);
    out.restLength.resize(slots, 0.f);
    // α̃ grows in the form it is held in; a layout from scratch (slots = 0 first) starts as
    // floats, and the next refresh classes it again (refreshBatches).
    if (slots == 0) {
        out.alphaClassed = false;
        std::vector<std::uint8_t>().swap(out.alphaClass);
    }
    if (out.alphaClassed)
        out.alphaClass.resize(slots, 0);
    else
        out.alphaTilde.resize(slots, 0.f);
    // γ is kept only while some slot is damped (refreshBatches): it grows with the others
    // while it is held, and stays empty otherwise.
    if (!out.gamma.empty() || slots == 0)
        out.gamma.resize(slots, 0.f);
    out.lambda.resize(slots, 0.f);
    out.spanX.resize(slots, nan);
    out.spanY.resize(slots, nan);
    out.spanZ.resize(slots, nan);
    const std::size_t blocks = slots / XpbdBatches::kLanes;
    out.blockFetch.resize(blocks, XpbdBatches::Gather);
    out.blockDamped.resize(blocks, 1);
    out.windowBase.resize(blocks, 0);
    out.windowStep.resize(blocks, 0);
    out.windowPattern.resize(blocks, 0);
    if (blocks == 0) {
        out.gatherEnds.clear();
        out.patternLanes.clear();
        out.patternSlots.clear();
    }
    for (std::size_t k = oldBlocks; k < blocks && gatherNew; ++k) {
        out.windowBase[k] = std::uint32_t(out.gatherEnds.size());
        out.windowStep[k] = 0;
        out.gatherEnds.resize(out.gatherEnds.size() + 2 * XpbdBatches::kLanes, 0);
    }
}

// Appends colours after the laid-out ones, colour c with room for extra[c - the old colour
// count] constraints in gathered blocks of padding, which placeAdded() then fills, and room
// for `growLast` more in the last laid-out colour. Nothing laid out moves: the new slots
// follow the old ones.
void appendColours(XpbdBatches &out, const std::vector<std::uint32_t> &extra, std::uint32_t growLast = 0)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    const std::size_t old = out.start.size() - 1;
    const std::uint32_t oldSlots = out.start.back();
    out.start.back() += (growLast + L - 1) / L * L; // the last colour may grow in place
    for (std::uint32_t count : extra)
        out.start.push_back(out.start.back() + (count + L - 1) / L * L);
    out.conflictFree.resize(old + extra.size(), 1);
    const std::size_t slots = out.start.back();
    resizeStreams(out, slots);
    std::uint32_t members = growLast;
    for (std::uint32_t count : extra)
        members += count;
    out.builtPadding += std::uint32_t(slots - oldSlots) - members; // rounding up to whole blocks
    setChunks(out);
}

// A constraint's ends, listed in colour order (position k of the colouring's `order`).
struct Link {
    std::uint32_t a, b;
};

// A block of one conflict-free colour: up to kLanes constraints, and for a window block the
// two windows and the lanes' ends (real constraints, then carriers: padding lanes whose ends
// are the windows' idle particles, so that every position of a window is some lane's end).
struct Block {
    std::uint32_t link[XpbdBatches::kLanes]; ///< position in `order`, kNone for padding
    std::uint32_t a[XpbdBatches::kLanes], b[XpbdBatches::kLanes];
    std::uint8_t fetch = XpbdBatches::Gather;
    std::uint32_t base0 = 0, base1 = 0;
};

// Groups the constraints of one conflict-free colour into blocks of kLanes lanes. The order
// of a colour's constraints does not change any result (they share no particle), so the
// grouping is free to serve the kernel: as many constraints as possible go into window
// blocks, whose 16 lane ends fill two runs of 8 consecutive particles (plain vector loads
// and stores instead of gathers). A window may hold particles that no constraint of this
// colour touches ("idle"); they ride along on padding lanes and are written back unchanged.
// No particle is in two blocks' windows, so blocks never write over each other, on one
// thread or two. A window block needs kMinWindowLanes real constraints to beat a full
// gather block; the rest are gathered 8 at a time, in ascending constraint order.
constexpr std::uint32_t kMinWindowLanes = 5;

class ColourBlocker {
public:
    explicit ColourBlocker(std::size_t particles)
    {
        const std::size_t n = particles;
        m_owner.assign(n, kNone);
        m_other.assign(n, kNone);
        m_claimed.assign(n, 0);
    }

    /// The colour's constraints are links[0, count), at positions first + i of `order`.
    void run(const Link *links, std::uint32_t firstLink, std::size_t count, std::vector<Block> &blocks)
    {
        constexpr std::uint32_t L = XpbdBatches::kLanes;
        m_firstLink = firstLink;
        std::uint32_t first = kNone, last = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const Link &c = links[i];
            m_owner[c.a] = m_owner[c.b] = std::uint32_t(i);
            m_other[c.a] = c.b | kEndA;
            m_other[c.b] = c.a;
            first = std::min({ first, c.a, c.b });
            last = std::max({ last, c.a, c.b });
        }
        m_taken.assign(count, 0);
        // Lower ends in ascending order: each starts a window block unless it is taken.
        for (std::uint32_t p = first; count > 0 && p <= last; ++p) {
            const std::uint32_t owner = m_owner[p];
            if (owner == kNone || m_taken[owner] || other(p) < p)
                continue;
            Block block;
            if (windowBlock(p, block))
                blocks.push_back(block);
        }
        // The rest, gathered.
        Block gather;
        std::uint32_t lanes = 0;
        for (std::size_t i = 0; i < count; ++i) {
            if (m_taken[i])
                continue;
            const Link &c = links[i];
            gather.link[lanes] = firstLink + std::uint32_t(i);
            gather.a[lanes] = c.a;
            gather.b[lanes] = c.b;
            if (++lanes == L) {
                blocks.push_back(gather);
                lanes = 0;
            }
        }
        if (lanes > 0) {
            for (; lanes < L; ++lanes) {
                gather.link[lanes] = kNone;
                gather.a[lanes] = gather.b[lanes] = 0;
            }
            blocks.push_back(gather);
        }
        for (std::size_t i = 0; i < count; ++i)
            m_owner[links[i].a] = m_owner[links[i].b] = kNone;
        for (std::uint32_t q : m_claimedList)
            m_claimed[q] = 0;
        m_claimedList.clear();
    }

private:
    // Whether window [base, base + 8) fits: inside the particles, nothing in it claimed by
    // another block, every particle idle or an end of a free constraint.
    bool windowFree(std::uint32_t base) const
    {
        if (std::size_t(base) + XpbdBatches::kLanes > m_owner.size())
            return false;
        for (std::uint32_t q = base; q < base + XpbdBatches::kLanes; ++q) {
            if (m_claimed[q] || (m_owner[q] != kNone && m_taken[m_owner[q]]))
                return false;
        }
        return true;
    }

    // The other end of particle q's constraint in this colour (q must have one), and whether
    // q is that constraint's end a.
    std::uint32_t other(std::uint32_t q) const { return m_other[q] & ~kEndA; }
    bool isEndA(std::uint32_t q) const { return (m_other[q] & kEndA) != 0; }

    bool windowBlock(std::uint32_t base0, Block &block)
    {
        constexpr std::uint32_t L = XpbdBatches::kLanes;
        if (!windowFree(base0))
            return false;
        // The second window starts at the lowest end outside the first (or right after it).
        std::uint32_t base1 = kNone;
        for (std::uint32_t q = base0; q < base0 + L; ++q) {
            if (m_owner[q] == kNone)
                continue;
            const std::uint32_t o = other(q);
            if (o < base0)
                return false;
            if (o >= base0 + L)
                base1 = std::min(base1, o);
        }
        if (base1 == kNone)
            base1 = base0 + L;
        if (!windowFree(base1))
            return false;
        const auto inWindows = [&](std::uint32_t q) {
            return (q >= base0 && q < base0 + L) || (q >= base1 && q < base1 + L);
        };
        std::uint32_t real = 0;
        std::uint32_t idle[2 * L];
        std::uint32_t idleCount = 0;
        for (std::uint32_t w = 0; w < 2; ++w) {
            const std::uint32_t base = w ? base1 : base0;
            for (std::uint32_t q = base; q < base + L; ++q) {
                if (m_owner[q] == kNone) {
                    idle[idleCount++] = q;
                    continue;
                }
                if (!inWindows(other(q)))
                    return false;
                real += other(q) > q;
            }
        }
        if (real < kMinWindowLanes)
            return false;
        // Runs when every constraint goes from position l of one window to position l of the
        // other in the same direction: lane l is position l (carriers fill the other lanes).
        bool runs = true;
        for (std::uint32_t l = 0; l < L && runs; ++l) {
            const std::uint32_t q = base0 + l;
            if (m_owner[q] == kNone)
                runs = m_owner[base1 + l] == kNone;
            else
                runs = isEndA(q) && other(q) == base1 + l;
        }
        block.base0 = base0;
        block.base1 = base1;
        std::uint32_t lane = 0;
        if (runs) {
            block.fetch = XpbdBatches::Runs;
            for (std::uint32_t l = 0; l < L; ++l) {
                const std::uint32_t owner = m_owner[base0 + l];
                block.link[l] = owner == kNone ? kNone : m_firstLink + owner;
                block.a[l] = base0 + l;
                block.b[l] = base1 + l;
            }
        } else if (dealtLanes(base0, base1, XpbdBatches::kEvenOddLanes, block)
            || dealtLanes(base0, base1, XpbdBatches::kPairLanes, block)) {
            block.fetch = XpbdBatches::Windows;
        } else {
            block.fetch = XpbdBatches::Windows;
            for (std::uint32_t w = 0; w < 2; ++w) {
                for (std::uint32_t q = w ? base1 : base0; q < (w ? base1 : base0) + L; ++q) {
                    if (m_owner[q] == kNone || other(q) < q)
                        continue;
                    block.link[lane] = m_firstLink + m_owner[q];
                    block.a[lane] = isEndA(q) ? q : other(q);
                    block.b[lane] = isEndA(q) ? other(q) : q;
                    ++lane;
                }
            }
            for (std::uint32_t i = 0; i < idleCount; i += 2, ++lane) {
                block.link[lane] = kNone;
                block.a[lane] = idle[i];
                block.b[lane] = idle[i + 1];
            }
        }
        for (std::uint32_t w = 0; w < 2; ++w) {
            for (std::uint32_t q = w ? base1 : base0; q < (w ? base1 : base0) + L; ++q) {
                if (m_owner[q] != kNone)
                    m_taken[m_owner[q]] = 1;
                m_claimed[q] = 1;
                m_claimedList.push_back(q);
            }
        }
        return true;
    }

    // The lanes of window block (base0, base1) in `layout`, one of the two a grid's
    // horizontal colours take (XpbdBatches::kEvenOddLanes, kPairLanes), which the AVX2
    // kernels fetch with shuffles instead of general permutes: true when each lane's two
    // positions hold a constraint of the colour from its end a to its end b, or two idle
    // particles (a carrier). A horizontal colour with some links missing (cut, torn or never
    // there) keeps its layout this way; numbering the real constraints first would shift the
    // lanes after each gap into a pattern of their own, which the kernels fetch at about
    // twice the cost. Writes the lanes into `block` as it goes (all of them when true).
    bool dealtLanes(std::uint32_t base0, std::uint32_t base1, std::uint64_t layout, Block &block) const
    {
        constexpr std::uint32_t L = XpbdBatches::kLanes;
        for (std::uint32_t l = 0; l < L; ++l) {
            const auto particle = [&](std::uint32_t end) {
                const auto nibble = std::uint32_t(layout >> (4 * (end * L + l))) & 15u;
                return ((nibble & 8u) ? base1 : base0) + (nibble & 7u);
            };
            const std::uint32_t a = particle(0), b = particle(1);
            if (m_owner[a] == kNone && m_owner[b] == kNone) {
                block.link[l] = kNone;
            } else if (m_owner[a] != kNone && isEndA(a) && other(a) == b) {
                block.link[l] = m_firstLink + m_owner[a];
            } else {
                return false;
            }
            block.a[l] = a;
            block.b[l] = b;
        }
        return true;
    }

    static constexpr std::uint32_t kEndA = 1u << 31;

    std::uint32_t m_firstLink = 0;
    std::vector<std::uint32_t> m_owner; ///< per particle: index in the colour's list, or kNone
    std::vector<std::uint32_t> m_other; ///< per particle with an owner: other end, | kEndA if a
    std::vector<std::uint8_t> m_claimed; ///< per particle: in some block's window
    std::vector<std::uint32_t> m_claimedList;
    std::vector<std::uint8_t> m_taken; ///< per constraint of the colour: in a block
};

} // namespace

void buildXpbdBatches(const Cloth &cloth, const std::vector<std::uint32_t> &order,
    const std::vector<std::uint32_t> &batchStart, int catchAllColour, XpbdBatches &out)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    const std::size_t colours = batchStart.empty() ? 0 : batchStart.size() - 1;
    out.start.assign(colours + 1, 0);
    out.conflictFree.assign(colours, 1);
    // The blocks of every colour, in slot order; the catch-all colour keeps its order.
    // The constraints' ends and rest lengths in colour order, read from the records in one
    // sequential pass (the colours take every constraint once each).
    const std::size_t m = order.size();
    std::vector<Link> links(m);
    std::vector<float> rests(m);
    {
        std::vector<std::uint32_t> position(cloth.constraints.size(), kNone);
        for (std::size_t k = 0; k < m; ++k)
            position[order[k]] = std::uint32_t(k);
        for (std::size_t i = 0; i < cloth.constraints.size(); ++i) {
            const std::uint32_t k = position[i];
            if (k == kNone)
                continue;
            const PackedConstraint dc = cloth.constraints.packed(i);
            links[k] = { dc.a, dc.b };
            rests[k] = dc.restLength;
        }
    }
    std::vector<Block> blocks;
    blocks.reserve(m / L + colours);
    ColourBlocker blocker(cloth.particles.size());
    for (std::size_t c = 0; c < colours; ++c) {
        out.conflictFree[c] = int(c) != catchAllColour;
        const std::uint32_t first = batchStart[c];
        const std::size_t count = batchStart[c + 1] - first;
        if (out.conflictFree[c]) {
            blocker.run(links.data() + first, first, count, blocks);
        } else {
            for (std::size_t i = 0; i < count; i += L) {
                Block block;
                for (std::uint32_t l = 0; l < L; ++l) {
                    const bool real = i + l < count;
                    block.link[l] = real ? first + std::uint32_t(i + l) : kNone;
                    block.a[l] = real ? links[first + i + l].a : 0;
                    block.b[l] = real ? links[first + i + l].b : 0;
                }
                blocks.push_back(block);
            }
        }
        out.start[c + 1] = std::uint32_t(blocks.size() * L);
    }
    const std::size_t slots = out.start[colours];
    setChunks(out);
    resizeStreams(out, 0);
    resizeStreams(out, slots, false);
    out.needsRefresh = true;
    out.builtPadding = std::uint32_t(slots - m);
    const std::size_t blockCount = blocks.size();
    PatternIndex patterns;
    for (std::size_t k = 0; k < blockCount; ++k) {
        const Block &block = blocks[k];
        out.blockFetch[k] = block.fetch;
        // A colour's blocks are independent, so one gathered instead of read through its
        // windows gives the same bits.
        if (block.fetch == XpbdBatches::Gather
            || !setWindows(out, patterns, k, block.base0, block.base1, block.a, block.b)) {
            out.blockFetch[k] = XpbdBatches::Gather;
            out.windowBase[k] = std::uint32_t(out.gatherEnds.size());
            out.windowStep[k] = 0;
            out.gatherEnds.insert(out.gatherEnds.end(), block.a, block.a + L);
            out.gatherEnds.insert(out.gatherEnds.end(), block.b, block.b + L);
        }
        std::uint32_t records[L];
        for (std::uint32_t l = 0; l < L; ++l)
            records[l] = block.link[l] == kNone ? kNone : order[block.link[l]];
        out.source.setBlock(k, records);
        for (std::uint32_t l = 0; l < L; ++l) {
            const std::size_t slot = k * L + l;
            const std::uint32_t link = block.link[l];
            if (link == kNone)
                continue;
            const float rest = rests[link];
            out.restLength[slot] = rest;
            out.spanX[slot] = out.spanY[slot] = out.spanZ[slot] = 0.f;
        }
    }
    out.gatherEnds.shrink_to_fit();
    out.source.shrinkToFit();
    out.patternLanes.shrink_to_fit();
    out.patternSlots.shrink_to_fit();
}

void XpbdBatches::gather(std::size_t block)
{
    if (blockFetch[block] == Gather)
        return;
    std::uint32_t a[kLanes], b[kLanes];
    blockEnds(block, a, b);
    windowBase[block] = std::uint32_t(gatherEnds.size());
    windowStep[block] = 0;
    gatherEnds.insert(gatherEnds.end(), a, a + kLanes);
    gatherEnds.insert(gatherEnds.end(), b, b + kLanes);
    blockFetch[block] = Gather;
}

namespace {

// Places constraint i in a padding lane of its colour c, of a gathered block if there is one.
// The colouring keeps every other constraint of c off its particles; a window of c holding
// one of them (as an idle particle) would write it back as read over the new constraint's
// correction, so such a block gathers from now on (its windows' particles are then its
// lanes' own again). False when the colour has no padding lane left.
bool placeAdded(const DistanceConstraint &dc, std::uint32_t i, std::uint32_t c, XpbdBatches &out)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    const std::uint32_t first = out.start[c], last = out.start[c + 1];
    const auto inWindow = [](std::uint32_t q, std::uint32_t base) { return q >= base && q < base + L; };
    for (std::uint32_t block = first / L; block < last / L; ++block) {
        if (out.blockFetch[block] == XpbdBatches::Gather)
            continue;
        const std::uint32_t base0 = out.windowFirst(block), base1 = out.windowSecond(block);
        if (inWindow(dc.a, base0) || inWindow(dc.a, base1) || inWindow(dc.b, base0) || inWindow(dc.b, base1))
            out.gather(block);
    }
    // A padding lane of a gathered block if there is one, else of a window block, which then
    // gathers (its lanes then write only what they move).
    std::uint32_t free = kNone;
    for (std::uint32_t s = first; s < last; ++s) {
        if (out.source.live(s))
            continue;
        if (out.blockFetch[s / L] == XpbdBatches::Gather) {
            free = s;
            break;
        }
        if (free == kNone)
            free = s;
    }
    if (free != kNone) {
        const std::uint32_t s = free;
        out.gather(s / L);
        out.source.set(s, i);
        out.setEnds(s, dc.a, dc.b);
        out.spanX[s] = out.spanY[s] = out.spanZ[s] = 0.f; // set from the origins with the parameters
        return true;
    }
    return false;
}

} // namespace

bool remapXpbdBatches(const Cloth &cloth, const std::vector<std::uint8_t> &colour,
    const std::uint32_t (&colourCount)[64], const std::vector<std::uint32_t> &added, std::size_t oldConstraints,
    std::size_t freshFrom, XpbdBatches &out)
{
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    if (out.start.empty() || colourCount[63] != 0)
        return false;
    const std::size_t colours = out.start.size() - 1;
    for (std::size_t c = 0; c < colours; ++c)
        if (!out.conflictFree[c])
            return false;
    const std::size_t m = cloth.constraints.size();
    const std::size_t slots = out.slotCount();
    // Padding added since the layout costs every pass its lanes; past a sixteenth of the
    // slots a layout from scratch (a few frames' worth of that waste) compacts them.
    if (m > slots || (slots - m) - std::min<std::size_t>(slots - m, out.builtPadding) > slots / kMaxAddedPaddingDivisor)
        return false;

    // Every constraint of the earlier topology has one slot. A tear, a cut or a vertex split
    // keeps the survivors in their order (stable compaction; a split moves an end in place),
    // so the old and the new lists are walked together: the old constraint at the front is
    // either the new one at the front (same colour, so in that colour's slots; same ends, or
    // an end moved to a new particle) or was removed, and its slot becomes padding. Within a
    // colour no two constraints share a particle, so one shared end and the colour name the
    // constraint: no other old constraint can be taken for it.
    // The old constraints' slots and ends in old index order, so that the walk below reads
    // everything it compares sequentially; only its stores go to scattered slots.
    struct Old {
        std::uint32_t slot = kNone, a = 0, b = 0;
    };
    std::vector<Old> old(oldConstraints);
    // The slots' records as one array while the walk renumbers them, held again as
    // SlotSources once it is done.
    std::vector<std::uint32_t> source(slots);
    std::size_t held = 0;
    for (std::uint32_t block = 0; block < slots / L; ++block) {
        std::uint32_t a[L], b[L], records[L];
        out.blockEnds(block, a, b);
        out.source.block(block, records);
        std::copy(records, records + L, source.begin() + std::ptrdiff_t(block * L));
        for (std::uint32_t l = 0; l < L; ++l) {
            const std::uint32_t s = block * L + l;
            const std::uint32_t j = records[l];
            if (j == kNone)
                continue;
            if (j >= oldConstraints)
                return false;
            old[j] = { s, a[l], b[l] };
            ++held;
        }
    }
    if (held != oldConstraints)
        return false; // not one slot per constraint: not the layout of that topology
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const auto pad = [&](std::uint32_t s) { // moves nothing (NaN span), keeps its particles
        source[s] = kNone;
        out.spanX[s] = out.spanY[s] = out.spanZ[s] = nan;
        out.restLength[s] = out.lambda[s] = 0.f;
        if (out.alphaClassed)
            out.alphaClass[s] = 0;
        else
            out.alphaTilde[s] = 0.f;
        if (!out.gamma.empty())
            out.gamma[s] = 0.f;
    };
    std::size_t j = 0;
    auto nextAdded = added.begin();
    for (std::size_t i = 0; i < m; ++i) {
        if (nextAdded != added.end() && *nextAdded == i) {
            ++nextAdded; // placed below, once the survivors hold their slots
            continue;
        }
        const PackedConstraint dc = cloth.constraints.packed(i);
        const std::uint8_t c = colour[i];
        if (c >= colours)
            return false;
        const std::uint32_t lo = out.start[c], hi = out.start[c + 1];
        for (; j < oldConstraints; ++j) {
            const Old &o = old[j];
            // An end may move only to a particle created since, which lies in no window:
            // gathering its block keeps every window's particles that block's own.
            const bool sameA = dc.a == o.a, sameB = dc.b == o.b;
            if (o.slot >= lo && o.slot < hi && (sameA || sameB) && (sameA || dc.a >= freshFrom)
                && (sameB || dc.b >= freshFrom))
                break;
            pad(o.slot);
        }
        if (j == oldConstraints)
            return false; // a constraint the earlier topology did not have
        const Old &o = old[j++];
        source[o.slot] = std::uint32_t(i);
        if (o.a != dc.a || o.b != dc.b) {
            out.gather(o.slot / L);
            out.setEnds(o.slot, dc.a, dc.b);
        }
    }
    for (; j < oldConstraints; ++j)
        pad(old[j].slot);
    out.source.assign(source);
    // Added constraints in colours beyond the laid-out ones (on a grid every interior
    // particle uses all 12 colours, so joining two of them takes a 13th) get colours of their
    // own, appended after the others; the last colour, at the end of the streams, takes new
    // blocks in place when its padding does not hold its added constraints.
    std::vector<std::uint32_t> extra;
    std::uint32_t toLast = 0;
    for (std::uint32_t i : added) {
        toLast += colour[i] + 1u == colours;
        if (colour[i] < colours)
            continue;
        extra.resize(std::max<std::size_t>(extra.size(), colour[i] - colours + 1), 0);
        ++extra[colour[i] - colours];
    }
    if (colours > 0 && toLast > 0) {
        std::uint32_t free = 0;
        for (std::uint32_t s = out.start[colours - 1]; s < out.start[colours]; ++s)
            free += !out.source.live(s);
        toLast = free >= toLast ? 0 : toLast - free;
    }
    if (!extra.empty() || toLast > 0)
        appendColours(out, extra, toLast);
    for (std::uint32_t i : added) {
        if (!placeAdded(cloth.constraints[i], i, colour[i], out))
            return false;
    }
    out.needsRefresh = true; // new ends take their spans, and the parameters their records'
    return true;
}

namespace {

// The per-frame parameter refresh of both solvers: α̃ = α · invDt2 and, for XPBD, γ = α c ·
// invDt (each solver rounds 1/dt² its own way, and both are pinned by golden hashes), for
// slots [begin, end).
bool refreshSlots(const Cloth &cloth, float dt, float invDt2, bool verlet, XpbdBatches &batches, std::size_t begin,
    std::size_t end)
{
    const float invDt = 1.f / dt;
    const std::size_t particles = cloth.particles.size();
    if (xpbdKernelIsa() >= KernelIsa::Avx2 && particles > 0)
        return refreshSlotsAvx2(cloth, invDt2, invDt, verlet, batches, begin, end);
    const SlotSources &source = batches.source;
    float *rest = batches.restLength.data();
    float *alphaTilde = batches.alphaTilde.data();
    float *gamma = batches.gamma.empty() ? nullptr : batches.gamma.data(); // none: no slot is damped
    bool ok = true;
    for (std::size_t s = begin; s < end; ++s) {
        const std::uint32_t src = source[s];
        if (src == ~std::uint32_t(0))
            continue;
        const DistanceConstraint c = cloth.constraints[src];
        ok &= constraintValid(c, particles); // every constraint has exactly one slot
        rest[s] = c.restLength;
        alphaTilde[s] = c.compliance * invDt2;
        // α̃ β̃ / dt (Macklin 2016 §3.5); constraint damping is not used by Verlet.
        if (gamma)
            gamma[s] = verlet ? 0.f : c.compliance * c.damping * invDt;
    }
    // The blocks of the range (ranges start and end on block boundaries).
    constexpr std::size_t L = XpbdBatches::kLanes;
    for (std::size_t block = begin / L; block < end / L; ++block) {
        bool damped = false;
        for (std::size_t l = 0; gamma && l < L; ++l)
            damped |= gamma[block * L + l] != 0.f;
        batches.blockDamped[block] = damped;
    }
    return ok;
}

// Slots are independent in both passes below: ranges of them may go to either thread.
// 16 floats = one cache line, so the threads never write the same line of a stream.
constexpr std::uint32_t kSlotGrain = 16;

// Whether some constraint takes a γ other than 0 in an XPBD refresh for substep dt (the
// expression of refreshSlots, so a NaN counts as damped).
bool anyDamped(const Cloth &cloth, float dt)
{
    const float invDt = 1.f / dt;
    bool damped = false;
    for (const DistanceConstraint &c : cloth.constraints)
        damped |= c.compliance * c.damping * invDt != 0.f;
    return damped;
}

// After a refresh wrote α̃ as floats: when the live slots hold at most maxAlphaClasses
// distinct values (bit for bit), each slot's becomes a byte naming its entry of alphaTable
// and the float stream is freed; otherwise the floats stay. Padding slots take class 0
// (their α̃ is never used: they move nothing).
void classAlpha(XpbdBatches &batches)
{
    const std::size_t slots = batches.slotCount();
    const std::size_t most = std::min(batches.maxAlphaClasses, XpbdBatches::kAlphaClasses);
    std::uint32_t bits[XpbdBatches::kAlphaClasses] = {};
    std::size_t count = 0, last = 0;
    std::vector<std::uint8_t> &byClass = batches.alphaClass;
    byClass.resize(slots);
    for (std::size_t s = 0; s < slots; ++s) {
        if (!batches.source.live(s)) {
            byClass[s] = 0;
            continue;
        }
        const std::uint32_t b = bitsOf(batches.alphaTilde[s]);
        if (count == 0 || bits[last] != b) { // neighbouring slots mostly share their material
            last = 0;
            while (last < count && bits[last] != b)
                ++last;
            if (last == count) {
                if (count == most) {
                    std::vector<std::uint8_t>().swap(byClass);
                    return; // too many: α̃ stays a float stream
                }
                bits[count++] = b;
            }
        }
        byClass[s] = std::uint8_t(last);
    }
    std::fill(std::begin(batches.alphaTable), std::end(batches.alphaTable), 0.f);
    for (std::size_t c = 0; c < count; ++c)
        std::memcpy(&batches.alphaTable[c], &bits[c], sizeof(float));
    batches.alphaClassed = true;
    std::vector<float>().swap(batches.alphaTilde);
}

bool refreshBatches(const Cloth &cloth, float dt, float invDt2, bool verlet, XpbdBatches &batches, XpbdWorker *team)
{
    batches.recordsHashIsa = -1; // checkFrame sets it again when it asked for this refresh
    // The γ stream is held only while a slot is damped: the kernels read it in damped blocks
    // alone, and Verlet never. Without it every block is undamped, as all-zero γ made them.
    if (!verlet && anyDamped(cloth, dt)) {
        if (batches.gamma.size() != batches.slotCount())
            batches.gamma.assign(batches.slotCount(), 0.f);
    } else {
        std::vector<float>().swap(batches.gamma);
    }
    // α̃ is written as floats, then kept as class bytes where it can be (classAlpha).
    batches.alphaClassed = false;
    if (batches.alphaTilde.size() != batches.slotCount())
        batches.alphaTilde.assign(batches.slotCount(), 0.f);
    std::atomic<bool> ok { true };
    forRanges(team, batches.slotCount(), kSlotGrain, [&](std::uint32_t begin, std::uint32_t end) {
        if (!refreshSlots(cloth, dt, invDt2, verlet, batches, begin, end))
            ok.store(false, std::memory_order_relaxed);
    });
    classAlpha(batches);
    batches.needsRefresh = false;
    batches.refreshedDt = dt;
    batches.refreshedForVerlet = verlet;
    return ok.load(std::memory_order_relaxed);
}

// setXpbdSpans() for slots [begin, end).
void setSpans(XpbdBatches &batches, const Vec3 *origin, std::size_t begin, std::size_t end)
{
    if (xpbdKernelIsa() == KernelIsa::Avx512) {
        setSpansAvx512(batches, origin, begin, end);
        return;
    }
    if (xpbdKernelIsa() >= KernelIsa::Avx2) {
        setSpansAvx2(batches, origin, begin, end);
        return;
    }
    for (std::size_t s = begin; s < end; ++s) {
        if (!batches.source.live(s))
            continue; // padding keeps its NaN span
        const XpbdBatches::Ends ends = batches.ends(s);
        const Vec3 &a = origin[ends.a];
        const Vec3 &b = origin[ends.b];
        // A float difference is correctly rounded: its error is relative to the link's
        // length, not to the distance from the world origin.
        batches.spanX[s] = a.x - b.x;
        batches.spanY[s] = a.y - b.y;
        batches.spanZ[s] = a.z - b.z;
    }
}

} // namespace

bool refreshXpbdBatches(const Cloth &cloth, float dt, XpbdBatches &batches, XpbdWorker *team)
{
    const float invDt = 1.f / dt;
    return refreshBatches(cloth, dt, invDt * invDt, false, batches, team);
}

bool refreshVerletBatches(const Cloth &cloth, float dt, XpbdBatches &batches, XpbdWorker *team)
{
    return refreshBatches(cloth, dt, 1.f / (dt * dt), true, batches, team);
}

namespace {

// One step of the records hash: xor, multiply by an odd constant (2^64 / golden ratio), fold
// the high bits down, so that every input bit reaches every output bit within a few steps.
std::uint64_t mixRecord(std::uint64_t acc, std::uint64_t word)
{
    const std::uint64_t t = (acc ^ word) * 0x9E3779B97F4A7C15ull;
    return t ^ (t >> 29);
}

// scanConstraintRecords for `count` records from `first`: each record's ends and rest length
// checked (constraintEndsValid), its material by `materialOk` (constraintMaterialValid of
// each material of the table); the hash mixes each record's material index and rest length.
bool scanRecords(const ConstraintRecords &records, std::size_t first, std::size_t count,
    std::size_t particles, const std::uint8_t *materialOk, std::uint64_t &hash)
{
    std::uint64_t acc = mixRecord(0, count);
    bool ok = true;
    // Read from the blocks a run at a time.
    constexpr std::size_t kRun = 256;
    PackedConstraint run[kRun];
    for (std::size_t at = first; at < first + count; at += kRun) {
        const std::size_t n = std::min(kRun, first + count - at);
        records.readPacked(at, n, run);
        for (const PackedConstraint *c = run; c != run + n; ++c) {
            ok &= constraintEndsValid(c->a, c->b, c->restLength, particles)
                & (materialOk[c->material()] != 0);
            acc = mixRecord(acc, std::uint64_t(c->material()) << 32 | bitsOf(c->restLength));
        }
    }
    hash = acc;
    return ok;
}

} // namespace

bool scanConstraintRecords(
    const Cloth &cloth, std::uint64_t &hash, int &isa, XpbdWorker *team, RecordScanScratch &scratch)
{
    const KernelIsa kernels = xpbdKernelIsa();
    isa = int(kernels);
    // The material table first (a grid has three): each material checked once, and what the
    // refresh reads of each (compliance, damping) into the hash.
    const std::vector<ConstraintMaterial> &materials = cloth.constraints.materials();
    std::vector<std::uint8_t> &materialOk = scratch.materialOk;
    materialOk.resize(materials.size());
    std::uint64_t acc = mixRecord(0, materials.size());
    for (std::size_t i = 0; i < materials.size(); ++i) {
        const ConstraintMaterial &m = materials[i];
        materialOk[i] = constraintMaterialValid(m.compliance, m.damping, m.tearStrain, m.tearForce);
        acc = mixRecord(acc, std::uint64_t(bitsOf(m.compliance)) << 32 | bitsOf(m.damping));
    }
    // Fixed chunks of records, each hashed on its own (by either thread), then the chunks'
    // hashes in order: the same hash whichever thread took which chunk.
    constexpr std::size_t kChunk = 16384;
    const std::size_t m = cloth.constraints.size();
    const std::size_t chunks = (m + kChunk - 1) / kChunk;
    std::vector<std::uint64_t> &chunkHashes = scratch.chunkHashes;
    chunkHashes.resize(chunks);
    std::atomic<bool> ok { true };
    forRanges(team, chunks, 1, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            const std::size_t from = k * kChunk;
            if (!scanRecords(cloth.constraints, from, std::min(kChunk, m - from), cloth.particles.size(),
                    materialOk.data(), chunkHashes[k]))
                ok.store(false, std::memory_order_relaxed);
        }
    });
    acc = mixRecord(acc, m);
    for (const std::uint64_t h : chunkHashes)
        acc = mixRecord(acc, h);
    hash = acc;
    return ok.load(std::memory_order_relaxed);
}

bool scanConstraintRecordsOnce(
    const Cloth &cloth, XpbdBatches &batches, std::uint64_t &hash, int &isa, XpbdWorker *team)
{
    const std::uint64_t id = cloth.constraints.contentId();
    if (id == batches.scannedRecords && batches.scannedParticles == cloth.particles.size()
        && batches.scannedIsa == int(xpbdKernelIsa())) {
        hash = batches.scannedHash;
        isa = batches.scannedIsa;
        return true;
    }
    batches.scannedRecords = 0;
    if (!scanConstraintRecords(cloth, hash, isa, team, batches.recordScan))
        return false;
    ++batches.recordScans;
    batches.scannedRecords = id;
    batches.scannedParticles = cloth.particles.size();
    batches.scannedHash = hash;
    batches.scannedIsa = isa;
    return true;
}

void setXpbdSpans(XpbdBatches &batches, const Vec3 *origin, XpbdWorker *team)
{
    forRanges(team, batches.slotCount(), kSlotGrain,
        [&](std::uint32_t begin, std::uint32_t end) { setSpans(batches, origin, begin, end); });
}

void xpbdConstraintTensions(const XpbdBatches &batches, float dt, std::vector<float> &out, XpbdWorker *team)
{
    const float invDt2 = 1.f / (dt * dt);
    constexpr std::uint32_t L = XpbdBatches::kLanes;
    forRanges(team, batches.slotCount(), kSlotGrain, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t k0 = begin; k0 < end; k0 += L) { // ranges start and end on blocks
            std::uint32_t records[L];
            batches.source.block(k0 / L, records);
            for (std::uint32_t l = 0; l < L; ++l)
                if (records[l] < out.size())
                    out[records[l]] = -batches.lambda[k0 + l] * invDt2;
        }
    });
}

namespace {

// One constraint (Macklin 2016 eq. 18 with the §3.5 damping) in the float arithmetic of
// SlotLink, operation for operation what each lane of the AVX2 kernel does. Used for the
// catch-all colour, whose constraints may share particles and must be visited in order, and
// for every colour on CPUs without AVX2.
template <typename Positions, typename PrevPositions>
void solveOne(XpbdBatches &s, std::uint32_t k, const Positions &x, const PrevPositions &xPrev, const float *w)
{
    const float lambda = s.lambdaZero ? 0.f : s.lambda[k];
    SlotLink l;
    const XpbdBatches::Ends ends = s.ends(k);
    if (!slotLink(s, k, ends, x, w, l)) {
        s.lambda[k] = lambda;
        return;
    }
    const auto [a, b] = ends;
    const Vec3 xa = positionOf(x, a), xb = positionOf(x, b);
    const float g = s.gamma.empty() ? 0.f : s.gamma[k]; // no γ stream: no slot is damped
    const float at = s.alphaOf(k);
    // Δλ = (-C - α̃λ - γ n·Δx) / den with C = S / (|d| + L) and n = d / |d|: numerator and
    // denominator times |d| + L, and one reciprocal R = 1 / (|d| (|d| + L) den) for the
    // rest, so that Δλ / |d| = num R is what moves the ends along d (SlotLink).
    const float den = fusedMulAdd(1.f + g, l.wSum, at);
    const float lenRestDen = l.lenRest * den;
    const float R = 1.f / (l.len * lenRestDen);
    // Without damping (γ = 0) the damping term is skipped: γ ∇C·Δx is a zero, and
    // subtracting it could only turn a -0 into +0.
    const float undamped = fusedMulAdd(-l.lenRest, at * lambda, -l.S);
    float num = undamped;
    if (g != 0.f) {
        const Vec3 va = xa - positionOf(xPrev, a), vb = xb - positionOf(xPrev, b);
        const float vx = va.x - vb.x, vy = va.y - vb.y, vz = va.z - vb.z;
        const float gradDotDx
            = fusedMulAdd(l.dz, vz, fusedMulAdd(l.dy, vy, l.dx * vx)) * (lenRestDen * R); // n·Δx
        num = fusedMulAdd(-l.lenRest, g * gradDotDx, undamped);
    }
    const float G = num * R; // Δλ / |d|
    s.lambda[k] = fusedMulAdd(G, l.len, lambda);
    const float ca = w[a] * G, cb = w[b] * G;
    setPosition(
        x, a, Vec3 { fusedMulAdd(l.dx, ca, xa.x), fusedMulAdd(l.dy, ca, xa.y), fusedMulAdd(l.dz, ca, xa.z) });
    setPosition(x, b,
        Vec3 { fusedMulAdd(-l.dx, cb, xb.x), fusedMulAdd(-l.dy, cb, xb.y), fusedMulAdd(-l.dz, cb, xb.z) });
}

// Every colour in order, on the caller or shared with `team`, in either layout.
template <typename Positions, typename PrevPositions>
void solveColours(XpbdBatches &batches, const Positions &x, const PrevPositions &xPrev, const float *invMass,
    XpbdWorker *team)
{
    if (team) {
        team->solvePass(batches, x, xPrev, invMass);
        return;
    }
    for (std::size_t c = 0; c + 1 < batches.start.size(); ++c)
        solveXpbdSlots(
            batches, batches.start[c], batches.start[c + 1], batches.conflictFree[c] != 0, x, xPrev, invMass);
}

template <typename Positions>
void relaxColours(
    XpbdBatches &batches, const Positions &x, const float *invMass, float invDt2, XpbdWorker *team)
{
    if (team) {
        team->relaxPass(batches, x, invMass, invDt2);
        return;
    }
    for (std::size_t c = 0; c + 1 < batches.start.size(); ++c)
        relaxVerletSlots(batches, batches.start[c], batches.start[c + 1], batches.conflictFree[c] != 0, x,
            invMass, invDt2);
}

} // namespace

PlanarPositions planesIn(std::vector<float> &store, std::size_t particles, std::size_t skew)
{
    const std::size_t stride = (particles + 15) / 16 * 16 + kPlaneGap;
    if (store.size() < skew + 3 * stride)
        store.resize(skew + 3 * stride);
    float *f = store.data() + skew;
    return { f, f + stride, f + 2 * stride };
}

PlanarPositions copyToPlanes(
    std::vector<float> &store, const Vec3 *v, std::size_t particles, XpbdWorker *team, std::size_t skew)
{
    const PlanarPositions p = planesIn(store, particles, skew);
    forRanges(
        team, particles, 16, [&](std::uint32_t begin, std::uint32_t end) { toPlanesAvx2(v, begin, end, p); });
    return p;
}

void copyFromPlanes(const PlanarPositions &p, std::size_t particles, Vec3 *v, XpbdWorker *team)
{
    forRanges(team, particles, 16,
        [&](std::uint32_t begin, std::uint32_t end) { fromPlanesAvx2(p, begin, end, v); });
}

bool xpbdBlocksDamped(const XpbdBatches &batches)
{
    return !batches.blockDamped.empty()
        && std::memchr(batches.blockDamped.data(), 1, batches.blockDamped.size()) != nullptr;
}

void solveXpbdPlanes(XpbdBatches &batches, const PlanarPositions &x, const PlanarPositions &xPrev,
    const float *invMass, XpbdWorker *team, int passes)
{
    for (int pass = 0; pass < passes; ++pass) {
        solveColours(batches, x, xPrev, invMass, team);
        batches.lambdaZero = false;
    }
}

void solveXpbdSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree, Vec3 *x,
    const Vec3 *xPrev, const float *invMass)
{
    if (conflictFree) {
        switch (xpbdKernelIsa()) {
        case KernelIsa::Avx512:
            solveConflictFreeAvx512(batches, begin, end, x, xPrev, invMass);
            return;
        case KernelIsa::Avx2:
            solveConflictFreeAvx2(batches, begin, end, x, xPrev, invMass);
            return;
        case KernelIsa::Portable:
            break;
        }
    }
    for (std::uint32_t k = begin; k < end; ++k) {
        if (batches.source.live(k))
            solveOne(batches, k, x, xPrev, invMass);
    }
}

void solveXpbdSlots(XpbdBatches &batches, std::uint32_t begin, std::uint32_t end, bool conflictFree,
    const PlanarPositions &x, const PlanarPositions &xPrev, const float *invMass)
{
    if (conflictFree) {
        if (xpbdKernelIsa() == KernelIsa::Avx512)
            solveConflictFreePlanarAvx512(batches, begin, end, x, xPrev, invMass);
        else
            solveConflictFreePlanarAvx2(batches, begin, end, x, xPrev, invMass);
        return;
    }
    for (std::uint32_t k = begin; k < end; ++k) {
        if (batches.source.live(k))
            solveOne(batches, k, x, xPrev, invMass);
    }
}

void solveXpbdPass(XpbdBatches &batches, Vec3 *x, const Vec3 *xPrev, const float *invMass,
    std::size_t particles, XpbdWorker *team, int passes)
{
    if (xpbdKernelIsa() == KernelIsa::Portable) {
        for (int pass = 0; pass < passes; ++pass) {
            solveColours(batches, x, xPrev, invMass, team);
            batches.lambdaZero = false;
        }
        return;
    }
    const PlanarPositions planes = copyToPlanes(batches.planes, x, particles, team);
    // The previous offsets only feed the damping term: without a damped block every γ is
    // zero and the term is never taken, so the pass reads the current planes in their place.
    const PlanarPositions prev = xpbdBlocksDamped(batches)
        ? copyToPlanes(batches.prevPlanes, xPrev, particles, team, kPrevPlanesSkew)
        : planes;
    solveXpbdPlanes(batches, planes, prev, invMass, team, passes);
    copyFromPlanes(planes, particles, x, team);
}

void relaxVerletPass(XpbdBatches &batches, Vec3 *x, const float *invMass, float invDt2, std::size_t particles,
    XpbdWorker *team, int passes)
{
    if (xpbdKernelIsa() == KernelIsa::Portable) {
        for (int pass = 0; pass < passes; ++pass)
            relaxColours(batches, x, invMass, invDt2, team);
        return;
    }
    const PlanarPositions planes = copyToPlanes(batches.planes, x, particles, team);
    relaxVerletPlanes(batches, planes, invMass, invDt2, team, passes);
    copyFromPlanes(planes, particles, x, team);
}

void relaxVerletPlanes(XpbdBatches &batches, const PlanarPositions &x, const float *invMass, float invDt2,
    XpbdWorker *team, int passes)
{
    for (int pass = 0; pass < passes; ++pass)
        relaxColours(batches, x, invMass, invDt2, team);
}

} // namespace drape::detail
