#pragma once

#include "core/steps/steprecord.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace synctax {

// A bounded single-producer/single-consumer ring of step records. The training loop pushes and
// never waits: when the consumer falls behind, records are dropped and counted, so a slow
// consumer can never stretch a measured step.
class StepRing {
public:
    explicit StepRing(size_t capacity = 1 << 16);

    bool push(const StepRecord& record); // producer only; false when full (the record is dropped)
    size_t drain(std::vector<StepRecord>& out, size_t max = SIZE_MAX); // consumer only; appends

    uint64_t dropped() const { return m_dropped.load(std::memory_order_relaxed); }
    size_t capacity() const { return m_slots.size(); }

private:
    std::vector<StepRecord> m_slots;
    size_t m_mask;
    alignas(64) std::atomic<uint64_t> m_head { 0 }; // next slot to write
    alignas(64) std::atomic<uint64_t> m_tail { 0 }; // next slot to read
    alignas(64) std::atomic<uint64_t> m_dropped { 0 };
};

} // namespace synctax
