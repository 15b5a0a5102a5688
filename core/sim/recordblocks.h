// How a cloth's constraint records are held: in blocks of eight, most of them described by a
// few numbers instead of listed (docs/benchmark.md, "Constraint records in blocks").
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace drape {

/// A constraint as ConstraintRecords stores it: its ends, rest length, material (an index
/// into the cloth's material table) and the solver's colour, in 16 bytes.
struct PackedConstraint {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    float restLength = 0.f;
    std::uint32_t materialAndColour = 0; ///< material index (bits 0-23), colour (bits 24-31)

    static constexpr std::uint32_t kMaterialBits = 24;
    static constexpr std::uint32_t kMaterialMask = (std::uint32_t(1) << kMaterialBits) - 1;
    std::uint32_t material() const { return materialAndColour & kMaterialMask; }
    std::uint8_t colour() const { return std::uint8_t(materialAndColour >> kMaterialBits); }

    bool operator==(const PackedConstraint &o) const
    {
        return a == o.a && b == o.b && std::memcmp(&restLength, &o.restLength, sizeof(float)) == 0
            && materialAndColour == o.materialAndColour;
    }
};
static_assert(sizeof(PackedConstraint) == 16);

/// An array of PackedConstraint held in blocks of eight records. The builders write a
/// grid's constraints row by row and kind by kind, so the eight records of a block mostly
/// share a material, their ends step through the particles in a pattern that repeats every
/// two records (a shear pair alternates its diagonals) but for a jump where a row ends,
/// their rest lengths lie within a few
/// float spacings of each other (the differences of float grid positions) and their
/// colours take few values. Such a block is held in 32 bytes, 4 a record: its first record,
/// the steps of its ends and the jump, the rest lengths as the first one's bits plus a byte
/// each, the colours in 6 bits each. The other blocks list their records (16 bytes each) in a second
/// array.
/// A record is read by value, in O(1); a write re-describes its block, a change from one
/// record on (replaceFrom) the blocks from there, and assign every block. The bits of every
/// record are kept exactly.
class RecordBlocks {
public:
    static constexpr std::size_t kLanes = 8;

    RecordBlocks() = default;
    RecordBlocks(const RecordBlocks &) = default;
    RecordBlocks &operator=(const RecordBlocks &) = default;
    RecordBlocks(RecordBlocks &&o) noexcept { swap(o); }
    RecordBlocks &operator=(RecordBlocks &&o) noexcept
    {
        RecordBlocks moved;
        moved.swap(o);
        swap(moved);
        return *this;
    }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    /// Records the blocks hold room for.
    std::size_t capacity() const { return m_blocks.capacity() * kLanes; }
    /// Bytes held (capacities), for the memory figures.
    std::size_t bytes() const
    {
        return m_blocks.capacity() * sizeof(Block) + m_listed.capacity() * sizeof(PackedConstraint)
            + m_freeGroups.capacity() * sizeof(std::uint32_t);
    }
    /// Blocks that list their records (for tests and the memory notes).
    std::size_t listedBlocks() const;

    PackedConstraint operator[](std::size_t i) const
    {
        const Block &b = m_blocks[i / kLanes];
        const std::size_t lane = i % kLanes;
        if (b.listed())
            return m_listed[std::size_t(b.a0) * kLanes + lane];
        return b.lane(lane);
    }
    /// Records [first, first + count) into out.
    void read(std::size_t first, std::size_t count, PackedConstraint *out) const;
    std::vector<PackedConstraint> toVector() const;

    void set(std::size_t i, const PackedConstraint &p);
    void push_back(const PackedConstraint &p);
    void pop_back();
    /// Holds exactly these records, in storage of room for max(capacity, count) records and
    /// no more.
    void assign(const PackedConstraint *records, std::size_t count, std::size_t capacity = 0);
    /// Keeps records [0, from) and holds `count` records from `tail` after them (from <=
    /// size()): only the blocks from the one holding record `from` on are described again, so
    /// an edit far down the records costs in proportion to what follows it.
    void replaceFrom(std::size_t from, const PackedConstraint *tail, std::size_t count);
    /// The first record i below min(size(), count) whose colour is not colours[i], or that
    /// minimum when none differs.
    std::size_t firstColourDifference(const std::uint8_t *colours, std::size_t count) const;
    void reserve(std::size_t n) { m_blocks.reserve((n + kLanes - 1) / kLanes); }
    void clear();
    void swap(RecordBlocks &o) noexcept
    {
        m_blocks.swap(o.m_blocks);
        m_listed.swap(o.m_listed);
        m_freeGroups.swap(o.m_freeGroups);
        std::swap(m_size, o.m_size);
    }

private:
    /// Eight records. Described: record l has ends a0 + (l / 2) aPair + (l % 2) aOdd and
    /// the same of b0 (unsigned, modulo 2^32), both plus `jump` from lane breakLane on when
    /// breakLane is not 0 (a grid's row ends there); rest length bits rest0 (+ restDelta[l -
    /// 1] past the first); the material `material`; the colour in 6 bits of `colours`, or
    /// uncoloured in every lane. Listed (material kListed): its records are m_listed[8 a0,
    /// 8 a0 + 8).
    struct Block {
        static constexpr std::uint16_t kListed = 0xFFF; ///< a material no described block has
        std::uint32_t a0 = 0;
        std::uint32_t b0 = 0;
        std::uint32_t rest0 = 0;
        std::int8_t aOdd = 0, aPair = 0, bOdd = 0, bPair = 0;
        std::int8_t restDelta[kLanes - 1] = {};
        std::uint8_t colours[6] = {}; ///< 8 lanes of 6 bits, lane l at bit 6 l
        std::int8_t jump = 0; ///< (read with the colours: keep it after them)
        std::uint16_t material : 12 = 0;
        std::uint16_t breakLane : 3 = 0;
        std::uint16_t uncoloured : 1 = 0;

        bool listed() const { return material == kListed; }
        PackedConstraint lane(std::size_t l) const
        {
            const auto pair = std::int32_t(l / 2), odd = std::int32_t(l % 2);
            const std::int32_t jumped = breakLane != 0 && l >= breakLane ? jump : 0;
            PackedConstraint p;
            p.a = a0 + std::uint32_t(pair * aPair + odd * aOdd + jumped);
            p.b = b0 + std::uint32_t(pair * bPair + odd * bOdd + jumped);
            const std::uint32_t rest = rest0 + (l ? std::uint32_t(std::int32_t(restDelta[l - 1])) : 0u);
            std::memcpy(&p.restLength, &rest, sizeof(float));
            // One 8-byte load from `colours` on (its 6 bytes, `jump` and a byte of the
            // fields below, all inside the block); only the colours' 48 bits are used.
            std::uint64_t bits;
            std::memcpy(&bits, colours, sizeof bits);
            const auto colour = uncoloured ? std::uint32_t(0xFF) : std::uint32_t(bits >> (6 * l)) & 63u;
            p.materialAndColour = std::uint32_t(material) | colour << PackedConstraint::kMaterialBits;
            return p;
        }
        /// Every lane, as lane() gives them, into out: the steps added lane by lane instead
        /// of multiplied, the shared fields read once.
        void decode(PackedConstraint (&out)[kLanes]) const
        {
            std::uint64_t bits;
            std::memcpy(&bits, colours, sizeof bits);
            std::uint64_t deltas = 0;
            std::memcpy(&deltas, restDelta, sizeof restDelta);
            const std::uint32_t mat = material;
            const std::uint32_t stepA[2]
                = { std::uint32_t(std::int32_t(aPair) - aOdd), std::uint32_t(std::int32_t(aOdd)) };
            const std::uint32_t stepB[2]
                = { std::uint32_t(std::int32_t(bPair) - bOdd), std::uint32_t(std::int32_t(bOdd)) };
            const std::uint32_t jumpBy = std::uint32_t(std::int32_t(jump));
            std::uint32_t a = a0, b = b0;
            for (std::size_t l = 0; l < kLanes; ++l) {
                if (l > 0) {
                    const std::uint32_t jumped = breakLane != 0 && l == breakLane ? jumpBy : 0u;
                    a += stepA[l % 2] + jumped;
                    b += stepB[l % 2] + jumped;
                }
                PackedConstraint &p = out[l];
                p.a = a;
                p.b = b;
                const std::uint32_t rest = rest0
                    + (l ? std::uint32_t(std::int32_t(std::int8_t(std::uint8_t(deltas >> (8 * (l - 1))))))
                         : 0u);
                std::memcpy(&p.restLength, &rest, sizeof(float));
                const auto colour = uncoloured ? std::uint32_t(0xFF) : std::uint32_t(bits >> (6 * l)) & 63u;
                p.materialAndColour = mat | colour << PackedConstraint::kMaterialBits;
            }
        }
    };
    static_assert(sizeof(Block) == 32);

    /// The description of `count` records (1 to 8) into out, or false (out untouched) when
    /// they do not fit one.
    static bool describe(const PackedConstraint *records, std::size_t count, Block &out);
    std::size_t lanesOf(std::size_t block) const { return std::min(kLanes, m_size - block * kLanes); }
    void readBlock(std::size_t block, PackedConstraint (&out)[kLanes]) const;
    /// Block `block` now holds `count` records: described when they fit, else listed (in
    /// its own group if it had one, else a free or a new group).
    void store(std::size_t block, const PackedConstraint *records, std::size_t count);
    /// Group `group` is no block's any more: kept for reuse, and once more than half of the
    /// groups are free, the used ones are moved together (so that edits that turn listed
    /// blocks back into described ones give the room back).
    void freeGroup(std::uint32_t group);
    /// Moves the used groups together when more than half of them are free.
    void compactGroupsIfSparse();

    std::vector<Block> m_blocks;
    std::vector<PackedConstraint> m_listed; ///< groups of eight, the listed blocks' records
    std::vector<std::uint32_t> m_freeGroups; ///< groups of m_listed no block uses
    std::size_t m_size = 0;
};

} // namespace drape
