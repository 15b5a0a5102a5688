// The simulated state of one cloth: particles as structure-of-arrays, constraints and
// triangles as index records (never pointers), so that tearing, cutting and undo can
// remap by index and the renderer can upload the arrays as they are.
#pragma once

#include "base/vec3.h"
#include "sim/recordblocks.h"

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace drape {

/// How a particle moves. Static and kinematic particles have inverse mass 0: the solver
/// never moves them, and they never split when the cloth tears.
enum class ParticleKind : std::uint8_t {
    Dynamic = 0,   ///< integrated by the solver
    Kinematic = 1, ///< moved from outside (a grab, an animated pin); velocity is taken from its motion
    Static = 2,    ///< fixed in place (a pin)
};

/// What a distance constraint stands for. The kind selects the material's stiffness and
/// lets the UI show or hide families of constraints.
enum class ConstraintKind : std::uint8_t {
    Structural = 0, ///< along a grid edge / rope link
    Shear = 1,      ///< across a quad's diagonal
    Bend = 2,       ///< legacy bending spring across a triangle pair / skipping one particle (see BendingParams)
    User = 3,       ///< added by hand (sewing); never rebuilt from triangles
};

/// What happens when a constraint is stretched past its tear strain.
enum class TearMode : std::uint8_t {
    None = 0,             ///< never tears
    RemoveConstraint = 1, ///< the constraint is deleted (the tearable-cloth demo)
    SplitVertex = 2,      ///< a particle is split along the tension plane (clean torn edges)
};

constexpr float kNeverTear = std::numeric_limits<float>::infinity();

/// A distance constraint C = |x_a - x_b| - restLength between two particles.
struct DistanceConstraint {
    std::uint32_t a = 0;         ///< particle index
    std::uint32_t b = 0;         ///< particle index
    float restLength = 0.f;      ///< m
    float compliance = 0.f;      ///< m/N, inverse stiffness (0 = rigid); springs use k = 1/compliance
    float damping = 0.f;         ///< N·s/m, damping along the constraint direction
    float tearStrain = kNeverTear; ///< (|x_a - x_b| - L) / L beyond which it tears; +inf = never
    ConstraintKind kind = ConstraintKind::Structural;
    /// The solver's colour for this constraint (0-63, kUncoloured before the solver saw it).
    /// Solver-derived state, not an authored property: scene files do not
    /// store it and operator== ignores it. It lives in the record (stored in the top byte of
    /// PackedConstraint::materialAndColour) so
    /// that a copy of the cloth carries it: the XPBD and Verlet results depend on which colour
    /// each constraint has, and after a tear or a cut the survivors keep theirs (see
    /// ClothSolverCache::ensure), so a copy whose solver streams are built afresh steps on
    /// bit for bit like the cloth it was copied from.
    std::uint8_t colour = kUncoloured;
    float tearForce = kNeverTear; ///< N, tension (sim/tension.h) beyond which it tears; +inf = never

    static constexpr std::uint8_t kUncoloured = 0xFF;

    /// The authored record: every field but the solver's colour.
    bool operator==(const DistanceConstraint &o) const
    {
        return a == o.a && b == o.b && restLength == o.restLength && compliance == o.compliance
            && damping == o.damping && tearStrain == o.tearStrain && kind == o.kind && tearForce == o.tearForce;
    }
};
static_assert(sizeof(DistanceConstraint) == 32, "the colour must stay in the record's padding");

/// What Cloth::validate() asks of a constraint's own fields, for a cloth of `particleCount`
/// particles: both ends in range and distinct, rest length finite and >= 0.
inline bool constraintEndsValid(std::uint32_t a, std::uint32_t b, float restLength, std::size_t particleCount)
{
    constexpr float inf = std::numeric_limits<float>::infinity();
    // Comparisons with NaN are false, so "x >= 0 and x < inf" is "finite and >= 0".
    return (a < particleCount) & (b < particleCount) & (a != b) & (restLength >= 0.f) & (restLength < inf);
}

/// What Cloth::validate() asks of a constraint's material: compliance and damping finite and
/// >= 0, tear strain and tear force > 0 (+inf = never).
inline bool constraintMaterialValid(float compliance, float damping, float tearStrain, float tearForce)
{
    constexpr float inf = std::numeric_limits<float>::infinity();
    return (compliance >= 0.f) & (compliance < inf) & (damping >= 0.f) & (damping < inf) & (tearStrain > 0.f)
        & (tearForce > 0.f);
}

/// What Cloth::validate() asks of one constraint of a cloth of `particleCount` particles:
/// its ends and its material valid (the two checks above). Branch-free, so that a pass that
/// reads the constraints anyway (the solvers' per-frame refresh of their streams) checks them
/// on the way; the record scan (xpbdbatch.h) checks each material of the table once and each
/// record's ends.
inline bool constraintValid(const DistanceConstraint &k, std::size_t particleCount)
{
    return constraintEndsValid(k.a, k.b, k.restLength, particleCount)
        & constraintMaterialValid(k.compliance, k.damping, k.tearStrain, k.tearForce);
}

/// A rendered face; counter-clockwise seen from the front side.
struct Triangle {
    std::uint32_t v[3] = {0, 0, 0}; ///< particle indices

    bool operator==(const Triangle &) const = default;
};

/// Dihedral-angle bending of a sheet (sim/bending.h): the flexural rigidity of the fabric as
/// an Euler–Bernoulli plate. The solver turns it into one element per edge shared by two
/// triangles, so any triangle mesh bends the same way whatever its resolution.
struct BendingParams {
    float rigidity = 0.f; ///< N·m, bending rigidity per unit width B (curvature across the warp); 0 = none
    float warpRigidity = 0.f; ///< N·m, B for curvature along the warp; 0 = the same as `rigidity`
    Vec3 warpAxis; ///< warp (thread) direction in rest space; zero = isotropic

    bool operator==(const BendingParams &) const = default;
};

/// What a constraint is made of besides its ends and rest length: its kind and how it
/// resists and breaks. Constraints with the same material share one entry of their cloth's
/// table (ConstraintRecords); entries are told apart by their bits (so -0 and +0, or two
/// NaNs of different payloads, stay distinct and round-trip exactly).
struct ConstraintMaterial {
    float compliance = 0.f; ///< m/N
    float damping = 0.f; ///< N·s/m
    float tearStrain = kNeverTear;
    float tearForce = kNeverTear; ///< N
    ConstraintKind kind = ConstraintKind::Structural;
    std::uint8_t padding[3] = { 0, 0, 0 }; ///< zero, so that the bits of equal materials are equal
};
static_assert(sizeof(ConstraintMaterial) == 20, "five dwords: the refresh gathers them");

/// A cloth's distance constraints: an array of records that knows whether it may have changed
/// since the solver last checked it. Records are read by value and written whole, through
/// the writing members below (set(), push_back(), eraseIf() ...), each of which counts as a
/// change, so the solver validates and hashes the records again before its next step; while
/// nothing writes, it steps on what it checked, without reading all the records every frame
/// (docs/solvers.md, "What a frame checks"). No reference into the storage is handed out:
/// each record is a PackedConstraint, its material shared with every record of the same
/// material in a table (a grid has three), which the table's users never see; unused
/// materials are dropped from time to time (docs/benchmark.md, "Constraint records in 16
/// bytes"). The records are held in blocks of eight (RecordBlocks), most of them described
/// in 4 bytes a record (docs/benchmark.md, "Constraint records in blocks of eight, window 1
/// as a step").
class ConstraintRecords {
public:
    using value_type = DistanceConstraint;
    using size_type = std::size_t;

    /// Reads the records in order, each by value.
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = DistanceConstraint;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = const DistanceConstraint;

        const_iterator() = default;
        const DistanceConstraint operator*() const { return (*m_records)[m_index]; }
        /// it->field reads a field of the record (held by the returned object).
        struct Arrow {
            DistanceConstraint record;
            const DistanceConstraint *operator->() const { return &record; }
        };
        Arrow operator->() const { return { **this }; }
        const DistanceConstraint operator[](difference_type n) const
        {
            return (*m_records)[std::size_t(difference_type(m_index) + n)];
        }
        const_iterator &operator++()
        {
            ++m_index;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator t = *this;
            ++m_index;
            return t;
        }
        const_iterator &operator--()
        {
            --m_index;
            return *this;
        }
        const_iterator operator--(int)
        {
            const_iterator t = *this;
            --m_index;
            return t;
        }
        const_iterator &operator+=(difference_type n)
        {
            m_index = std::size_t(difference_type(m_index) + n);
            return *this;
        }
        const_iterator &operator-=(difference_type n)
        {
            m_index = std::size_t(difference_type(m_index) - n);
            return *this;
        }
        friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
        friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
        friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
        friend difference_type operator-(const const_iterator &x, const const_iterator &y)
        {
            return difference_type(x.m_index) - difference_type(y.m_index);
        }
        friend bool operator==(const const_iterator &x, const const_iterator &y)
        {
            return x.m_index == y.m_index;
        }
        friend auto operator<=>(const const_iterator &x, const const_iterator &y)
        {
            return x.m_index <=> y.m_index;
        }
        /// The index of the record it reads.
        std::size_t index() const { return m_index; }

    private:
        friend class ConstraintRecords;
        const_iterator(const ConstraintRecords *records, std::size_t index)
            : m_records(records)
            , m_index(index)
        { }
        const ConstraintRecords *m_records = nullptr;
        std::size_t m_index = 0;
    };
    using iterator = const_iterator;

    ConstraintRecords() = default;
    ConstraintRecords(const std::vector<DistanceConstraint> &records)
    {
        assign(records.begin(), records.end());
    }
    ConstraintRecords(std::initializer_list<DistanceConstraint> records)
    {
        assign(records.begin(), records.end());
    }
    ConstraintRecords(const ConstraintRecords &) = default;
    ConstraintRecords(ConstraintRecords &&o) noexcept
        : m_packed(std::move(o.m_packed))
        , m_materials(std::move(o.m_materials))
        , m_compactAt(o.m_compactAt)
        , m_contentId(std::exchange(o.m_contentId, 0))
    { }
    ConstraintRecords &operator=(const ConstraintRecords &) = default;
    ConstraintRecords &operator=(ConstraintRecords &&o) noexcept
    {
        if (this == &o)
            return *this;
        m_packed = std::move(o.m_packed);
        m_materials = std::move(o.m_materials);
        m_lookup = {};
        m_compactAt = o.m_compactAt;
        m_contentId = std::exchange(o.m_contentId, 0);
        return *this;
    }
    ConstraintRecords &operator=(const std::vector<DistanceConstraint> &records)
    {
        assign(records.begin(), records.end());
        return *this;
    }
    ConstraintRecords &operator=(std::initializer_list<DistanceConstraint> records)
    {
        assign(records.begin(), records.end());
        return *this;
    }

    // Reading. Each read returns a const value, so that an assignment to it (records[i] = c,
    // a write that would be lost) does not compile: write with set() or modify().
    std::size_t size() const { return m_packed.size(); }
    bool empty() const { return m_packed.empty(); }
    /// Records the storage holds room for.
    std::size_t capacity() const { return m_packed.capacity(); }
    /// Bytes the storage holds (its capacity, the material table and its index), for the
    /// memory figures.
    std::size_t bytes() const
    {
        return m_packed.bytes() + m_materials.capacity() * sizeof(ConstraintMaterial)
            + m_lookup.table.capacity() * sizeof(std::uint32_t);
    }
    const DistanceConstraint operator[](std::size_t i) const { return unpack(m_packed[i]); }
    /// Record i as stored (internal to the core: the solver's passes over the records).
    PackedConstraint packed(std::size_t i) const { return m_packed[i]; }
    /// Records [first, first + count) as stored, into out (internal to the core).
    void readPacked(std::size_t first, std::size_t count, PackedConstraint *out) const
    {
        m_packed.read(first, count, out);
    }
    /// fn(i, record) for every record as stored, in order, read a run at a time (internal to
    /// the core: the passes that need the records' ends or colours, not their materials).
    template <class Fn> void forEachPacked(Fn &&fn) const
    {
        constexpr std::size_t kRun = 256;
        PackedConstraint run[kRun];
        const std::size_t m = size();
        for (std::size_t first = 0; first < m; first += kRun) {
            const std::size_t n = std::min(kRun, m - first);
            readPacked(first, n, run);
            for (std::size_t j = 0; j < n; ++j)
                fn(first + j, static_cast<const PackedConstraint &>(run[j]));
        }
    }
    const DistanceConstraint front() const { return (*this)[0]; }
    const DistanceConstraint back() const { return (*this)[size() - 1]; }
    const_iterator begin() const { return const_iterator(this, 0); }
    const_iterator end() const { return const_iterator(this, size()); }
    /// Every record, as a vector of its own.
    std::vector<DistanceConstraint> records() const { return { begin(), end() }; }
    /// Equal records (DistanceConstraint::operator==: the solver's colours aside).
    bool operator==(const ConstraintRecords &o) const;

    // Writing: each marks the records changed.
    void set(std::size_t i, const DistanceConstraint &c)
    {
        const PackedConstraint p = pack(c);
        edit().set(i, p);
    }
    void push_back(const DistanceConstraint &c)
    {
        const PackedConstraint p = pack(c);
        edit().push_back(p);
    }
    void pop_back() { edit().pop_back(); }
    void erase(const_iterator at) { erase(at, at + 1); }
    void erase(const_iterator first, const_iterator last)
    {
        if (first == last)
            return;
        std::vector<PackedConstraint> r = tailFrom(last.index());
        holdFrom(first.index(), r);
    }
    /// Removes the records for which pred(record) is true, keeping the others in order;
    /// returns how many it removed. pred sees every record once, in order. Only the records
    /// from the first one removed on are written again.
    template <typename Pred> std::size_t eraseIf(Pred &&pred)
    {
        const std::size_t n = size();
        std::size_t from = 0;
        PackedConstraint chunk[64];
        for (bool found = false; from < n && !found;) {
            const std::size_t take = std::min<std::size_t>(std::size(chunk), n - from);
            m_packed.read(from, take, chunk);
            std::size_t j = 0;
            while (j < take && !pred(static_cast<const DistanceConstraint &>(unpack(chunk[j]))))
                ++j;
            found = j < take;
            from += j;
        }
        if (from == n)
            return 0;
        // Record `from` goes; the rest after it are judged in one vector.
        std::vector<PackedConstraint> r = tailFrom(from + 1);
        std::size_t kept = 0;
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (pred(static_cast<const DistanceConstraint &>(unpack(r[i]))))
                continue;
            if (kept != i)
                r[kept] = r[i];
            ++kept;
        }
        const std::size_t removed = 1 + r.size() - kept;
        r.resize(kept);
        holdFrom(from, r);
        return removed;
    }
    /// Inserts k records at once: record j of them, recordOf(j), ends at index indexOf(j),
    /// the indices ascending (a merge from the back, O(n + k) in the records from indexOf(0)
    /// on); does nothing when k is 0.
    template <typename IndexOf, typename RecordOf>
    void insertSorted(std::size_t k, IndexOf &&indexOf, RecordOf &&recordOf)
    {
        eraseThenInsert(
            0, [](std::size_t) { return std::size_t(0); }, k, indexOf, recordOf);
    }
    /// Removes `removedCount` records, the one at index removedAt(i) before the removal i-th
    /// (ascending), then inserts k records as insertSorted does (indexOf in the numbering
    /// after both). One rewrite of the records from the first index either names.
    template <typename RemovedAt, typename IndexOf, typename RecordOf>
    void eraseThenInsert(std::size_t removedCount, RemovedAt &&removedAt, std::size_t k, IndexOf &&indexOf,
        RecordOf &&recordOf)
    {
        if (removedCount == 0 && k == 0)
            return;
        // Packed first: a new material may compact the table, which rewrites the blocks.
        std::vector<PackedConstraint> added(k);
        for (std::size_t j = 0; j < k; ++j)
            added[j] = pack(recordOf(j));
        // No record before the first removal or the first insertion moves or changes.
        std::size_t from = size();
        if (removedCount > 0)
            from = std::min<std::size_t>(from, removedAt(0));
        if (k > 0)
            from = std::min<std::size_t>(from, indexOf(0));
        // The records from `from` on as they will be, filled in order: the runs of old
        // records between removals and insertions read straight into their places.
        const std::size_t oldSize = size();
        std::vector<PackedConstraint> r(oldSize - removedCount + k - from);
        std::size_t src = from, out = 0, nextRemoved = 0, nextAdded = 0;
        while (out < r.size()) {
            if (nextAdded < k && std::size_t(indexOf(nextAdded)) == from + out) {
                r[out++] = added[nextAdded++];
                continue;
            }
            if (nextRemoved < removedCount && std::size_t(removedAt(nextRemoved)) == src) {
                ++src;
                ++nextRemoved;
                continue;
            }
            std::size_t run = std::min(oldSize - src, r.size() - out);
            if (nextRemoved < removedCount)
                run = std::min(run, std::size_t(removedAt(nextRemoved)) - src);
            if (nextAdded < k)
                run = std::min(run, std::size_t(indexOf(nextAdded)) - (from + out));
            if (run == 0)
                break; // indices out of order (the edits validate them): no endless loop
            m_packed.read(src, run, r.data() + out);
            src += run;
            out += run;
        }
        holdFrom(from, r);
    }
    /// Record i through f(DistanceConstraint &): read, changed by f, written back.
    template <typename F> void modify(std::size_t i, F &&f)
    {
        DistanceConstraint c = (*this)[i];
        f(c);
        set(i, c);
    }
    /// modify() for every record, in order.
    template <typename F> void modifyAll(F &&f)
    {
        std::vector<PackedConstraint> r = m_packed.toVector();
        {
            const Pending pending(*this, r);
            for (std::size_t i = 0; i < r.size(); ++i) {
                DistanceConstraint c = unpack(r[i]);
                f(c);
                r[i] = pack(c);
            }
        }
        hold(r);
    }
    /// n records: the first ones kept, new ones default records.
    void resize(std::size_t n);
    void clear()
    {
        edit().clear();
        m_materials.clear();
        m_lookup = {};
    }
    void reserve(std::size_t n) { m_packed.reserve(n); } // the records stay as they are
    /// Moves the records into storage of room for exactly max(capacity, size()) records (the
    /// records stay as they are).
    void fitCapacity(std::size_t capacity)
    {
        const std::vector<PackedConstraint> r = m_packed.toVector();
        m_packed.assign(r.data(), r.size(), capacity);
    }
    void swap(ConstraintRecords &o) noexcept
    {
        m_packed.swap(o.m_packed);
        m_materials.swap(o.m_materials);
        std::swap(m_lookup, o.m_lookup);
        std::swap(m_compactAt, o.m_compactAt);
        std::swap(m_contentId, o.m_contentId);
    }
    /// The solver's colour of record i (DistanceConstraint::colour); counts as a change.
    void setColour(std::size_t i, std::uint8_t colour)
    {
        PackedConstraint p = m_packed[i];
        p.materialAndColour = p.material() | std::uint32_t(colour) << PackedConstraint::kMaterialBits;
        edit().set(i, p);
    }
    /// The solver's colour of every record, colours[i] for record i (as many as records);
    /// counts as a change when a record's colour changes (only the records from the first
    /// such one on are written).
    void setColours(const std::vector<std::uint8_t> &colours)
    {
        const std::size_t from = m_packed.firstColourDifference(colours.data(), colours.size());
        if (from == std::min(size(), colours.size()))
            return;
        std::vector<PackedConstraint> r = tailFrom(from);
        for (std::size_t i = 0; i < r.size() && from + i < colours.size(); ++i)
            r[i].materialAndColour
                = r[i].material() | std::uint32_t(colours[from + i]) << PackedConstraint::kMaterialBits;
        holdFrom(from, r);
    }

    /// The material table as stored, for the solver's vector passes (internal to the core).
    const std::vector<ConstraintMaterial> &materials() const { return m_materials; }

    /// A number that names the present records: the same number while nothing writes them
    /// (copies made after it was drawn included, since they hold the same records), another
    /// after any write. It is drawn from one counter for the whole process when first asked
    /// after a write, so records that were never copied from one another never share it.
    /// Although const, it may write the number it draws: not for concurrent use on the same
    /// records (the solver calls it from the thread that steps them).
    std::uint64_t contentId() const;

private:
    RecordBlocks &edit()
    {
        m_contentId = 0;
        return m_packed;
    }
    /// Holds exactly the records r (a bulk change), as a write.
    void hold(const std::vector<PackedConstraint> &r) { edit().assign(r.data(), r.size()); }
    /// Records [from, size()) in a vector of their own.
    std::vector<PackedConstraint> tailFrom(std::size_t from) const
    {
        std::vector<PackedConstraint> r(size() - std::min(from, size()));
        m_packed.read(from, r.size(), r.data());
        return r;
    }
    /// Keeps records [0, from) and holds `tail` after them, as a write.
    void holdFrom(std::size_t from, const std::vector<PackedConstraint> &tail)
    {
        edit().replaceFrom(from, tail.data(), tail.size());
    }
    template <typename It> void assign(It first, It last)
    {
        // Storage of the records' size (a vector's spare room is not carried over).
        m_packed.assign(nullptr, 0);
        m_materials.clear();
        m_lookup = {};
        m_contentId = 0;
        std::vector<PackedConstraint> r;
        r.reserve(std::size_t(std::distance(first, last)));
        {
            const Pending pending(*this, r);
            for (; first != last; ++first)
                r.push_back(pack(*first));
        }
        m_packed.assign(r.data(), r.size());
    }
    DistanceConstraint unpack(const PackedConstraint &p) const
    {
        const ConstraintMaterial &m = m_materials[p.material()];
        return { .a = p.a,
            .b = p.b,
            .restLength = p.restLength,
            .compliance = m.compliance,
            .damping = m.damping,
            .tearStrain = m.tearStrain,
            .kind = m.kind,
            .colour = p.colour(),
            .tearForce = m.tearForce };
    }
    PackedConstraint pack(const DistanceConstraint &c)
    {
        return { .a = c.a,
            .b = c.b,
            .restLength = c.restLength,
            .materialAndColour
            = materialIndex(c) | std::uint32_t(c.colour) << PackedConstraint::kMaterialBits };
    }
    /// The index of c's material in the table, added when it is not there.
    std::uint32_t materialIndex(const DistanceConstraint &c);
    /// Drops the materials no record uses and renumbers the others.
    void compactMaterials();

    /// An open-addressing index of the material table by the materials' bits: rebuilt on
    /// demand, and not copied (a copy builds its own when it first adds a material).
    struct Lookup {
        std::vector<std::uint32_t> table; ///< material index + 1, 0 = empty; a power of two long
        std::uint32_t last = 0; ///< the material found or added last
        Lookup() = default;
        Lookup(const Lookup &) { }
        Lookup(Lookup &&) noexcept = default;
        Lookup &operator=(const Lookup &)
        {
            table.clear();
            last = 0;
            return *this;
        }
        Lookup &operator=(Lookup &&) noexcept = default;
    };

    /// While a bulk change packs its records into a vector of its own (modifyAll, assign),
    /// that vector holds the records: a compaction of the materials reads and renumbers it.
    struct Pending {
        ConstraintRecords &records;
        Pending(ConstraintRecords &r, std::vector<PackedConstraint> &v)
            : records(r)
        {
            records.m_pending.records = &v;
        }
        ~Pending() { records.m_pending.records = nullptr; }
        Pending(const Pending &) = delete;
        Pending &operator=(const Pending &) = delete;
    };

    RecordBlocks m_packed;
    /// Not copied: a copy has no bulk change under way.
    struct PendingRecords {
        std::vector<PackedConstraint> *records = nullptr;
        PendingRecords() = default;
        PendingRecords(const PendingRecords &) { }
        PendingRecords &operator=(const PendingRecords &) { return *this; }
        explicit operator bool() const { return records != nullptr; }
        std::vector<PackedConstraint> &operator*() const { return *records; }
    };
    PendingRecords m_pending;
    std::vector<ConstraintMaterial> m_materials;
    Lookup m_lookup;
    std::size_t m_compactAt = 64; ///< table size at which adding a material first drops unused ones
    mutable std::uint64_t m_contentId = 0; ///< 0: not drawn since the last write
};

/// Particle attributes as parallel arrays, all of the same length. The forces on them are not
/// state: a solver takes them each substep (ClothSolverCache::force, forces.h).
struct Particles {
    std::vector<Vec3> position;        ///< m, current position
    std::vector<Vec3> previous;        ///< m, position at the start of the last step (Verlet, XPBD)
    std::vector<Vec3> velocity; ///< m/s
    std::vector<Vec3> rest;            ///< m, authored (rest) position; texture coordinates derive from it
    std::vector<float> mass;           ///< kg, kept for pinned particles too (unpinning restores it)
    std::vector<float> invMass;        ///< 1/kg, 0 for static and kinematic particles
    std::vector<ParticleKind> kind;

    std::size_t size() const { return position.size(); }
    bool empty() const { return position.empty(); }

    /// Appends a particle at rest at `p`; returns its index.
    /// `p` is taken by value, so it may be one of this cloth's own positions (a particle added
    /// where another one is): the arrays it fills may move when they grow.
    std::uint32_t add(Vec3 p, float massKg, ParticleKind k = ParticleKind::Dynamic);
    void resize(std::size_t n);
    /// Sets the kind and keeps invMass consistent with it.
    void setKind(std::uint32_t i, ParticleKind k);
    /// Sets the mass (kg > 0) and keeps invMass consistent with the kind.
    void setMass(std::uint32_t i, float massKg);
};

/// One cloth: its state (particles) and topology (constraints, triangles).
struct Cloth {
    std::string name;
    Particles particles;
    ConstraintRecords constraints;
    std::vector<Triangle> triangles;
    /// Texture coordinates per particle (an imported mesh's UVs); empty, or of another length
    /// than the particles after a tear split some, means they derive from the rest positions.
    std::vector<std::array<float, 2>> uv;
    TearMode tearMode = TearMode::None;
    float thickness = 0.005f;       ///< m, collision half-thickness of the sheet
    /// Long-range attachments (Kim, Chentanez, Müller 2012): a free particle stays within
    /// tetherStretch × its rest geodesic distance of the nearest pinned particle; 0 = off.
    float tetherStretch = 0.f;
    /// Dihedral bending; its elements are derived from `triangles` and the rest positions by
    /// the solver whenever the topology changes (tears, cuts and splits need no remapping).
    BendingParams bending;
    /// Incremented by every change to triangles, constraints or the particle count, so a
    /// renderer rebuilds index buffers only when it changes.
    std::uint64_t topologyRevision = 0;

    void touchTopology() { ++topologyRevision; }
    /// Sum of particle masses, kg.
    double totalMass() const;
    /// Empty when every index is in range, masses positive and finite and positions finite;
    /// otherwise a message naming the first problem ("constraint 12: particle 900 out of range, cloth has 400").
    std::string validate() const;
    /// validate() without the per-constraint checks, as a yes or no: every particle array in
    /// one branch-free pass, so that it is cheap enough to run before every step. When it
    /// says no, validate() names the problem.
    bool validExceptConstraints() const;
    /// validExceptConstraints() in parts, for a check shared between threads: the particle
    /// arrays' lengths and the cloth's own settings, then the values of particles [begin,
    /// end) and of triangles [triangleBegin, triangleEnd) (call it once the first said yes).
    bool arraysAndSettingsValid() const;
    bool valuesValid(
        std::size_t begin, std::size_t end, std::size_t triangleBegin, std::size_t triangleEnd) const;
};

/// Per-vertex normals from the triangles (area weighted), for rendering and wind.
void computeVertexNormals(const Cloth &cloth, std::vector<Vec3> &normals);

} // namespace drape
