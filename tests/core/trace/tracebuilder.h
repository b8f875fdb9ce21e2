#pragma once

#include "core/trace/kinetotrace.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

// A Kineto trace built by hand in microseconds, as a test states it: one host thread (lane 0) and
// GPU 0 streams 7 (lane 1) and 8 (lane 2). build() sorts the events as the reader does.
class TraceBuilder {
public:
    static constexpr std::uint32_t host = 0;
    static constexpr std::uint32_t stream7 = 1;
    static constexpr std::uint32_t stream8 = 2;

    TraceBuilder()
    {
        m_trace.lanes
            = { { false, 100, 10, "thread 10" }, { true, 0, 7, "GPU 0 stream 7" }, { true, 0, 8, "GPU 0 stream 8" } };
        m_trace.info.file = "hand-built.json";
        m_trace.info.devices = { "NVIDIA H200" };
        m_trace.info.cudaRuntimeVersion = 13000;
    }

    TraceBuilder& add(synctax::TraceEventKind kind, const std::string& name, double startUs, double durUs,
        std::uint32_t lane = host, std::int64_t correlation = -1)
    {
        synctax::TraceEvent e;
        e.kind = kind;
        e.name = intern(name);
        e.lane = lane;
        e.startNs = std::llround(startUs * 1000);
        e.durationNs = std::llround(durUs * 1000);
        e.correlation = correlation;
        m_trace.events.push_back(e);
        return *this;
    }
    TraceBuilder& step(const std::string& name, double startUs, double durUs)
    {
        return add(synctax::TraceEventKind::Step, name, startUs, durUs);
    }
    TraceBuilder& op(const std::string& name, double startUs, double durUs)
    {
        return add(synctax::TraceEventKind::CpuOp, name, startUs, durUs);
    }
    TraceBuilder& frame(const std::string& name, double startUs, double durUs)
    {
        return add(synctax::TraceEventKind::PythonFunction, name, startUs, durUs);
    }
    // A cudaLaunchKernel and the kernel it queued, joined by `correlation`.
    TraceBuilder& kernel(double launchUs, double launchDurUs, std::int64_t correlation, double startUs, double durUs,
        std::uint32_t stream = stream7)
    {
        add(synctax::TraceEventKind::Launch, "cudaLaunchKernel", launchUs, launchDurUs, host, correlation);
        return add(synctax::TraceEventKind::Kernel, "gemm", startUs, durUs, stream, correlation);
    }
    TraceBuilder& copy(double launchUs, double launchDurUs, std::int64_t correlation, double startUs, double durUs,
        const std::string& memory)
    {
        add(synctax::TraceEventKind::Launch, "cudaMemcpyAsync", launchUs, launchDurUs, host, correlation);
        return add(synctax::TraceEventKind::Memcpy, "Memcpy DtoH (Device -> " + memory + ")", startUs, durUs, stream7,
            correlation);
    }
    TraceBuilder& sync(const std::string& name, double startUs, double durUs)
    {
        return add(synctax::TraceEventKind::Sync, name, startUs, durUs);
    }

    synctax::KinetoTrace build()
    {
        std::stable_sort(m_trace.events.begin(), m_trace.events.end(),
            [](const synctax::TraceEvent& a, const synctax::TraceEvent& b) {
                return a.startNs != b.startNs ? a.startNs < b.startNs : a.durationNs > b.durationNs;
            });
        return m_trace;
    }

private:
    std::uint32_t intern(const std::string& name)
    {
        const auto it = std::find(m_trace.names.begin(), m_trace.names.end(), name);
        if (it != m_trace.names.end())
            return std::uint32_t(it - m_trace.names.begin());
        m_trace.names.push_back(name);
        return std::uint32_t(m_trace.names.size() - 1);
    }

    synctax::KinetoTrace m_trace;
};
