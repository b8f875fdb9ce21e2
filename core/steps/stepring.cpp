#include "core/steps/stepring.h"

namespace synctax {

namespace {

size_t roundUpToPowerOfTwo(size_t n)
{
    size_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

} // namespace

StepRing::StepRing(size_t capacity)
    : m_slots(roundUpToPowerOfTwo(capacity < 2 ? 2 : capacity))
    , m_mask(m_slots.size() - 1)
{
}

bool StepRing::push(const StepRecord& record)
{
    const uint64_t head = m_head.load(std::memory_order_relaxed);
    if (head - m_tail.load(std::memory_order_acquire) >= m_slots.size()) {
        m_dropped.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    m_slots[head & m_mask] = record;
    m_head.store(head + 1, std::memory_order_release);
    return true;
}

size_t StepRing::drain(std::vector<StepRecord>& out, size_t max)
{
    const uint64_t tail = m_tail.load(std::memory_order_relaxed);
    const uint64_t head = m_head.load(std::memory_order_acquire);
    uint64_t n = head - tail;
    if (n > max)
        n = max;
    for (uint64_t i = 0; i < n; ++i)
        out.push_back(m_slots[(tail + i) & m_mask]);
    m_tail.store(tail + n, std::memory_order_release);
    return size_t(n);
}

} // namespace synctax
