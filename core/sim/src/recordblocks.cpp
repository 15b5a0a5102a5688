#include "sim/recordblocks.h"

namespace drape {

namespace {

bool fitsByte(std::int64_t v)
{
    return v >= -128 && v <= 127;
}

std::uint32_t bitsOf(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

} // namespace

bool RecordBlocks::describe(const PackedConstraint *r, std::size_t count, Block &out)
{
    // Built in locals and written to `out` field by field at the end: a Block assembled byte by
    // byte in memory and then copied whole stalls on the wide reads of the narrow writes.
    const std::uint32_t material = r[0].material();
    if (material >= Block::kListed)
        return false;
    const std::uint32_t a0 = r[0].a, b0 = r[0].b, rest0 = bitsOf(r[0].restLength);
    // The steps, taken from the first three records as signed differences (modulo 2^32).
    const auto step
        = [](std::uint32_t to, std::uint32_t from) { return std::int64_t(std::int32_t(to - from)); };
    std::int64_t aOdd = 0, bOdd = 0, aPair = 0, bPair = 0;
    if (count > 1) {
        aOdd = step(r[1].a, a0);
        bOdd = step(r[1].b, b0);
        if (!fitsByte(aOdd) || !fitsByte(bOdd))
            return false;
    }
    if (count > 2) {
        aPair = step(r[2].a, a0);
        bPair = step(r[2].b, b0);
        if (!fitsByte(aPair) || !fitsByte(bPair))
            return false;
    }
    const bool uncoloured = r[0].colour() == 0xFF;
    std::uint64_t colours = 0, restDeltas = 0;
    std::int32_t jump = 0;
    std::size_t breakLane = 0;
    // Each lane checked against what Block::lane gives back for it, field by field. The first
    // lane whose ends leave the steps (lanes 1 and 2 set them, so lane 3 or later) is where
    // they jump, by as much at both ends (a row's end); a second departure is no description.
    for (std::size_t l = 0; l < count; ++l) {
        const PackedConstraint &p = r[l];
        const std::uint8_t colour = p.colour();
        if (p.material() != material || (uncoloured ? colour != 0xFF : colour > 63))
            return false;
        colours |= std::uint64_t(uncoloured ? 0 : colour) << (6 * l);
        if (l > 0) {
            const std::int64_t delta = std::int64_t(bitsOf(p.restLength)) - std::int64_t(rest0);
            if (!fitsByte(delta))
                return false;
            restDeltas |= std::uint64_t(std::uint8_t(std::int8_t(delta))) << (8 * (l - 1));
        }
        const auto pair = std::int32_t(l / 2), odd = std::int32_t(l % 2);
        const std::uint32_t stepA = a0 + std::uint32_t(pair * std::int32_t(aPair) + odd * std::int32_t(aOdd));
        const std::uint32_t stepB = b0 + std::uint32_t(pair * std::int32_t(bPair) + odd * std::int32_t(bOdd));
        if (p.a == stepA + std::uint32_t(jump) && p.b == stepB + std::uint32_t(jump))
            continue;
        const std::int64_t jumpA = step(p.a, stepA), jumpB = step(p.b, stepB);
        if (breakLane != 0 || l < 3 || jumpA != jumpB || !fitsByte(jumpA))
            return false;
        jump = std::int32_t(jumpA);
        breakLane = l;
    }
    out.a0 = a0;
    out.b0 = b0;
    out.rest0 = rest0;
    out.aOdd = std::int8_t(aOdd);
    out.aPair = std::int8_t(aPair);
    out.bOdd = std::int8_t(bOdd);
    out.bPair = std::int8_t(bPair);
    std::memcpy(out.restDelta, &restDeltas, sizeof out.restDelta);
    std::memcpy(out.colours, &colours, sizeof out.colours);
    out.jump = std::int8_t(jump);
    out.material = std::uint16_t(material);
    out.breakLane = std::uint16_t(breakLane);
    out.uncoloured = uncoloured;
    return true;
}

std::size_t RecordBlocks::listedBlocks() const
{
    std::size_t n = 0;
    for (const Block &b : m_blocks)
        n += b.listed();
    return n;
}

void RecordBlocks::readBlock(std::size_t block, PackedConstraint (&out)[kLanes]) const
{
    const Block &b = m_blocks[block];
    const std::size_t count = lanesOf(block);
    if (b.listed()) {
        std::memcpy(out, &m_listed[std::size_t(b.a0) * kLanes], count * sizeof(PackedConstraint));
        return;
    }
    b.decode(out);
}

void RecordBlocks::read(std::size_t first, std::size_t count, PackedConstraint *out) const
{
    std::size_t i = first;
    const std::size_t end = first + count;
    while (i < end) {
        const std::size_t block = i / kLanes, lane = i % kLanes;
        const std::size_t take = std::min(lanesOf(block) - lane, end - i);
        const Block &b = m_blocks[block];
        if (b.listed()) {
            std::memcpy(out, &m_listed[std::size_t(b.a0) * kLanes + lane], take * sizeof(PackedConstraint));
        } else if (take == kLanes) {
            b.decode(*reinterpret_cast<PackedConstraint(*)[kLanes]>(out));
        } else {
            PackedConstraint all[kLanes];
            b.decode(all);
            std::memcpy(out, all + lane, take * sizeof(PackedConstraint));
        }
        out += take;
        i += take;
    }
}

std::vector<PackedConstraint> RecordBlocks::toVector() const
{
    std::vector<PackedConstraint> v(m_size);
    read(0, m_size, v.data());
    return v;
}

void RecordBlocks::store(std::size_t block, const PackedConstraint *records, std::size_t count)
{
    Block &b = m_blocks[block];
    const bool wasListed = b.listed();
    const std::uint32_t oldGroup = b.a0;
    if (describe(records, count, b)) { // (leaves b as it was when false)
        if (wasListed)
            freeGroup(oldGroup);
        return;
    }
    if (!b.listed()) {
        std::uint32_t group;
        if (!m_freeGroups.empty()) {
            group = m_freeGroups.back();
            m_freeGroups.pop_back();
        } else {
            group = std::uint32_t(m_listed.size() / kLanes);
            m_listed.resize(m_listed.size() + kLanes);
        }
        b = Block {};
        b.material = Block::kListed;
        b.a0 = group;
    }
    PackedConstraint *to = &m_listed[std::size_t(b.a0) * kLanes];
    std::fill(to, to + kLanes, PackedConstraint {});
    std::memcpy(to, records, count * sizeof(PackedConstraint));
}

void RecordBlocks::freeGroup(std::uint32_t group)
{
    m_freeGroups.push_back(group);
    compactGroupsIfSparse();
}

void RecordBlocks::compactGroupsIfSparse()
{
    const std::size_t groups = m_listed.size() / kLanes;
    if (m_freeGroups.size() * 2 <= groups)
        return;
    // Each used group moves to the next place in a new array, in block order.
    std::vector<PackedConstraint> packed;
    packed.reserve((groups - m_freeGroups.size()) * kLanes);
    for (Block &b : m_blocks) {
        if (!b.listed())
            continue;
        const auto from = m_listed.begin() + std::ptrdiff_t(std::size_t(b.a0) * kLanes);
        b.a0 = std::uint32_t(packed.size() / kLanes);
        packed.insert(packed.end(), from, from + std::ptrdiff_t(kLanes));
    }
    m_listed.swap(packed);
    std::vector<std::uint32_t>().swap(m_freeGroups);
}

void RecordBlocks::set(std::size_t i, const PackedConstraint &p)
{
    const std::size_t block = i / kLanes;
    PackedConstraint lanes[kLanes];
    readBlock(block, lanes);
    lanes[i % kLanes] = p;
    store(block, lanes, lanesOf(block));
}

void RecordBlocks::push_back(const PackedConstraint &p)
{
    if (m_size % kLanes == 0)
        m_blocks.emplace_back();
    ++m_size;
    const std::size_t block = m_blocks.size() - 1;
    PackedConstraint lanes[kLanes];
    const std::size_t count = lanesOf(block);
    if (count > 1)
        readBlock(block, lanes); // reads count records, the last one not yet held: overwritten
    lanes[count - 1] = p;
    store(block, lanes, count);
}

void RecordBlocks::pop_back()
{
    const std::size_t block = m_blocks.size() - 1;
    PackedConstraint lanes[kLanes];
    --m_size;
    const std::size_t count = m_size - block * kLanes;
    if (count == 0) {
        const Block last = m_blocks[block];
        m_blocks.pop_back();
        if (last.listed())
            freeGroup(last.a0);
        return;
    }
    readBlock(block, lanes);
    store(block, lanes, count);
}

void RecordBlocks::assign(const PackedConstraint *records, std::size_t count, std::size_t capacity)
{
    const std::size_t blocks = (count + kLanes - 1) / kLanes;
    const std::size_t room = (std::max(count, capacity) + kLanes - 1) / kLanes;
    // The blocks' storage is kept when it holds them without more than a quarter spare
    // (bulk writes of about the same records reuse it), else made of the size asked for.
    if (m_blocks.capacity() < room || m_blocks.capacity() > room + room / 4)
        std::vector<Block>().swap(m_blocks);
    m_blocks.reserve(room);
    m_blocks.resize(blocks);
    std::size_t listed = 0;
    for (std::size_t k = 0; k < blocks; ++k) {
        const std::size_t n = std::min(kLanes, count - k * kLanes);
        if (!describe(records + k * kLanes, n, m_blocks[k])) {
            m_blocks[k] = Block {};
            m_blocks[k].material = Block::kListed;
            m_blocks[k].a0 = std::uint32_t(listed++);
        }
    }
    std::vector<PackedConstraint> groups(listed * kLanes);
    for (std::size_t k = 0; k < blocks && listed > 0; ++k) {
        if (m_blocks[k].listed()) {
            const std::size_t n = std::min(kLanes, count - k * kLanes);
            std::memcpy(&groups[std::size_t(m_blocks[k].a0) * kLanes], records + k * kLanes,
                n * sizeof(PackedConstraint));
        }
    }
    m_listed.swap(groups);
    std::vector<std::uint32_t>().swap(m_freeGroups);
    m_size = count;
}

void RecordBlocks::replaceFrom(std::size_t from, const PackedConstraint *tail, std::size_t count)
{
    const std::size_t first = from / kLanes;
    const std::size_t head = from - first * kLanes; // records of block `first` kept
    PackedConstraint lanes[kLanes];
    if (head > 0)
        readBlock(first, lanes);
    // The blocks from `first` on give their groups back, then take what they now hold.
    for (std::size_t k = first; k < m_blocks.size(); ++k) {
        if (m_blocks[k].listed())
            m_freeGroups.push_back(m_blocks[k].a0);
        m_blocks[k] = Block {};
    }
    m_size = from + count;
    m_blocks.resize((m_size + kLanes - 1) / kLanes);
    std::size_t taken = 0;
    if (head > 0) {
        const std::size_t n = std::min(kLanes - head, count);
        std::copy(tail, tail + n, lanes + head);
        store(first, lanes, head + n);
        taken = n;
    }
    for (std::size_t k = first + (head > 0); k < m_blocks.size(); ++k) {
        const std::size_t n = std::min(kLanes, count - taken);
        store(k, tail + taken, n);
        taken += n;
    }
    // Groups past the last one in use go at once; the rest is compacted once sparse.
    if (!m_freeGroups.empty()) {
        std::size_t used = 0;
        for (const Block &b : m_blocks)
            used = b.listed() ? std::max<std::size_t>(used, std::size_t(b.a0) + 1) : used;
        if (used * kLanes < m_listed.size()) {
            m_listed.resize(used * kLanes);
            std::erase_if(m_freeGroups, [&](std::uint32_t g) { return g >= used; });
        }
        compactGroupsIfSparse();
    }
}

std::size_t RecordBlocks::firstColourDifference(const std::uint8_t *colours, std::size_t count) const
{
    const std::size_t n = std::min(m_size, count);
    for (std::size_t k = 0; k * kLanes < n; ++k) {
        const Block &b = m_blocks[k];
        const std::size_t lanes = std::min(kLanes, n - k * kLanes);
        const std::uint8_t *want = colours + k * kLanes;
        if (b.listed()) {
            const PackedConstraint *r = &m_listed[std::size_t(b.a0) * kLanes];
            for (std::size_t l = 0; l < lanes; ++l)
                if (r[l].colour() != want[l])
                    return k * kLanes + l;
            continue;
        }
        std::uint64_t bits = 0;
        std::memcpy(&bits, b.colours, sizeof b.colours);
        for (std::size_t l = 0; l < lanes; ++l) {
            const auto colour = b.uncoloured ? std::uint8_t(0xFF) : std::uint8_t((bits >> (6 * l)) & 63u);
            if (colour != want[l])
                return k * kLanes + l;
        }
    }
    return n;
}

void RecordBlocks::clear()
{
    m_blocks.clear();
    m_listed.clear();
    m_freeGroups.clear();
    m_size = 0;
}

} // namespace drape
