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
    Block b;
    const std::uint32_t material = r[0].material();
    if (material >= Block::kListed)
        return false;
    b.material = std::uint16_t(material);
    b.a0 = r[0].a;
    b.b0 = r[0].b;
    b.rest0 = bitsOf(r[0].restLength);
    // The steps, taken from the first three records as signed differences (modulo 2^32).
    const auto step
        = [](std::uint32_t to, std::uint32_t from) { return std::int64_t(std::int32_t(to - from)); };
    if (count > 1) {
        const std::int64_t aOdd = step(r[1].a, r[0].a), bOdd = step(r[1].b, r[0].b);
        if (!fitsByte(aOdd) || !fitsByte(bOdd))
            return false;
        b.aOdd = std::int8_t(aOdd);
        b.bOdd = std::int8_t(bOdd);
    }
    if (count > 2) {
        const std::int64_t aPair = step(r[2].a, r[0].a), bPair = step(r[2].b, r[0].b);
        if (!fitsByte(aPair) || !fitsByte(bPair))
            return false;
        b.aPair = std::int8_t(aPair);
        b.bPair = std::int8_t(bPair);
    }
    const bool uncoloured = r[0].colour() == 0xFF;
    b.uncoloured = uncoloured;
    std::uint64_t colours = 0;
    std::int32_t jump = 0;
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
            const std::int64_t delta = std::int64_t(bitsOf(p.restLength)) - std::int64_t(b.rest0);
            if (!fitsByte(delta))
                return false;
            b.restDelta[l - 1] = std::int8_t(delta);
        }
        const auto pair = std::int32_t(l / 2), odd = std::int32_t(l % 2);
        const std::uint32_t stepA = b.a0 + std::uint32_t(pair * b.aPair + odd * b.aOdd);
        const std::uint32_t stepB = b.b0 + std::uint32_t(pair * b.bPair + odd * b.bOdd);
        if (p.a == stepA + std::uint32_t(jump) && p.b == stepB + std::uint32_t(jump))
            continue;
        const std::int64_t jumpA = step(p.a, stepA), jumpB = step(p.b, stepB);
        if (b.breakLane != 0 || l < 3 || jumpA != jumpB || !fitsByte(jumpA))
            return false;
        jump = std::int32_t(jumpA);
        b.jump = std::int8_t(jumpA);
        b.breakLane = std::uint16_t(l);
    }
    std::memcpy(b.colours, &colours, sizeof b.colours);
    out = b;
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
    for (std::size_t l = 0; l < count; ++l)
        out[l] = b.lane(l);
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
        } else {
            for (std::size_t l = 0; l < take; ++l)
                out[l] = b.lane(lane + l);
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
    Block described;
    if (describe(records, count, described)) {
        const bool wasListed = b.listed();
        const std::uint32_t group = b.a0;
        b = described;
        if (wasListed)
            freeGroup(group);
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

void RecordBlocks::clear()
{
    m_blocks.clear();
    m_listed.clear();
    m_freeGroups.clear();
    m_size = 0;
}

} // namespace drape
