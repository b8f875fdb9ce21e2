#include "core/results/replayjson.h"

#include <cmath>

namespace synctax {

using json = nlohmann::json;

namespace {

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

// Reads the checked members of one object, keeping the first problem.
struct Reader {
    std::string& error;

    bool fail(const std::string& pointer, const std::string& message)
    {
        if (error.empty())
            error = pointer + ": " + message;
        return false;
    }
    double num(const json& o, const std::string& pointer, const char* key)
    {
        const auto it = o.find(key);
        if (it == o.end() || !it->is_number()) {
            fail(pointer + "/" + key, it == o.end() ? "missing" : "expected a number");
            return 0;
        }
        return it->get<double>();
    }
    std::string text(const json& o, const std::string& pointer, const char* key)
    {
        const auto it = o.find(key);
        if (it == o.end() || !it->is_string()) {
            fail(pointer + "/" + key, it == o.end() ? "missing" : "expected a string");
            return {};
        }
        return it->get<std::string>();
    }
    const json* object(const json& o, const std::string& pointer, const char* key)
    {
        const auto it = o.find(key);
        if (it == o.end() || !it->is_object()) {
            fail(pointer + "/" + key, it == o.end() ? "missing" : "expected an object");
            return nullptr;
        }
        return &*it;
    }
};

// The calibrated step's host events, where the file has them (written since they are): sorted
// offsets, and one 0/1 per event for the loop's thread or another.
void readHostEvents(Reader& in, const json& step, StepSequence& seq)
{
    const auto events = step.find("host_events_us");
    if (events == step.end())
        return;
    if (!events->is_array()) {
        in.fail("/step/host_events_us", "expected an array");
        return;
    }
    for (size_t i = 0; i < events->size(); ++i) {
        const json& e = (*events)[i];
        if (!e.is_number() || (i > 0 && e.get<double>() < seq.hostEventUs.back())) {
            in.fail("/step/host_events_us/" + std::to_string(i), "expected a number, not below the one before");
            return;
        }
        seq.hostEventUs.push_back(e.get<double>());
    }
    const auto off = step.find("host_events_off_loop");
    if (off == step.end())
        return;
    if (!off->is_array() || off->size() != events->size()) {
        in.fail("/step/host_events_off_loop",
            "expected an array of " + std::to_string(events->size()) + " (one per host event)");
        return;
    }
    for (size_t i = 0; i < off->size(); ++i) {
        const json& e = (*off)[i];
        if (!e.is_number_integer() || e.get<int>() < 0 || e.get<int>() > 1) {
            in.fail("/step/host_events_off_loop/" + std::to_string(i), "expected 0 or 1");
            return;
        }
        seq.hostEventOffLoop.push_back(std::uint8_t(e.get<int>()));
    }
}

} // namespace

json replayToJson(const CapturedReplay& r)
{
    json costs = json::object();
    for (const auto& [name, cost] : r.costs.measured) {
        costs[name] = { { "read_us", number(cost.readUs) }, { "step_us", number(cost.stepUs) } };
        if (cost.readAfterSynchronizeUs > 0)
            costs[name]["read_after_synchronize_us"] = number(cost.readAfterSynchronizeUs);
    }
    json ops = json::array();
    for (const LaunchOp& op : r.step.ops)
        ops.push_back({ number(op.issueUs), number(op.hostUs), number(op.gpuUs), op.stream });
    json step = { { "host_us", number(r.step.stepHostUs) }, { "ops", ops } };
    if (!r.step.hostEventUs.empty()) {
        // To 0.01 us: the profiler's cost per event is about 1 us, and the file stays a third smaller.
        json events = json::array();
        for (const double us : r.step.hostEventUs)
            events.push_back(number(std::round(us * 100.0) / 100.0));
        step["host_events_us"] = events;
        if (!r.step.hostEventOffLoop.empty())
            step["host_events_off_loop"] = r.step.hostEventOffLoop;
    }
    return {
        { "trace_file", r.traceFile.empty() ? json(nullptr) : json(r.traceFile) },
        { "captured_steps", r.capturedSteps },
        { "dispatch_ms", number(r.dispatchMs) },
        { "drain_ms", number(r.drainMs) },
        { "drain_median_ms", number(r.drainMedianMs) },
        { "profiled_host_ms", number(r.profiledHostMs) },
        { "calibration",
            { { "per_event_us", number(r.calibration.perEventUs) },
                { "per_event_off_loop_us",
                    r.calibration.perEventOffLoopUs ? number(*r.calibration.perEventOffLoopUs) : json(nullptr) },
                { "split_drain_short_us", number(r.calibration.splitDrainShortUs) },
                { "even_first", r.calibration.evenFirst }, { "host_scale", number(r.calibration.hostScale) },
                { "gpu_gap_us", number(r.calibration.gpuGapUs) }, { "gpu_scale", number(r.calibration.gpuScale) },
                { "how", r.calibration.how } } },
        { "baseline_host_scale", number(r.baselineHostScale) },
        { "tail_ms", number(r.tailMs) },
        { "idle_start_us", number(r.idleStartUs) },
        { "sync_us", number(r.costs.syncUs) },
        { "after_sync_us", number(r.costs.afterSyncUs) },
        { "after_sync_pairs", r.costs.afterSyncPairs },
        { "costs_source", r.costs.source },
        { "style_costs", costs },
        { "regime",
            { { "d_ms", number(r.regime.dMs) }, { "g_ms", number(r.regime.gMs) }, { "label", r.regime.label } } },
        { "step", step },
    };
}

std::optional<CapturedReplay> replayFromJson(const json& j, std::string& error)
{
    error.clear();
    Reader in { error };
    if (!j.is_object()) {
        in.fail("", "expected an object");
        return std::nullopt;
    }
    CapturedReplay r;
    if (const auto it = j.find("trace_file"); it != j.end() && it->is_string())
        r.traceFile = it->get<std::string>();
    r.capturedSteps = int(in.num(j, "", "captured_steps"));
    r.dispatchMs = in.num(j, "", "dispatch_ms");
    r.profiledHostMs = in.num(j, "", "profiled_host_ms");
    if (const json* c = in.object(j, "", "calibration")) {
        if (const auto it = c->find("per_event_us"); it != c->end() && it->is_number())
            r.calibration.perEventUs = it->get<double>();
        if (const auto it = c->find("per_event_off_loop_us"); it != c->end() && it->is_number())
            r.calibration.perEventOffLoopUs = it->get<double>();
        if (const auto it = c->find("split_drain_short_us"); it != c->end() && it->is_number())
            r.calibration.splitDrainShortUs = it->get<double>();
        // Absent from files written before the even stretch: a cost per event alone, fitted again.
        if (const auto it = c->find("even_first"); it != c->end() && it->is_boolean())
            r.calibration.evenFirst = it->get<bool>();
        r.calibration.hostScale = in.num(*c, "/calibration", "host_scale");
        r.calibration.gpuGapUs = in.num(*c, "/calibration", "gpu_gap_us");
        r.calibration.gpuScale = in.num(*c, "/calibration", "gpu_scale");
        r.calibration.how = in.text(*c, "/calibration", "how");
    }
    if (const auto it = j.find("baseline_host_scale"); it != j.end() && it->is_number())
        r.baselineHostScale = it->get<double>();
    if (const auto it = j.find("tail_ms"); it != j.end() && it->is_number())
        r.tailMs = it->get<double>();
    if (const auto it = j.find("drain_ms"); it != j.end() && it->is_number())
        r.drainMs = it->get<double>();
    if (const auto it = j.find("drain_median_ms"); it != j.end() && it->is_number())
        r.drainMedianMs = it->get<double>();
    if (const auto it = j.find("idle_start_us"); it != j.end() && it->is_number())
        r.idleStartUs = it->get<double>();
    r.costs.syncUs = in.num(j, "", "sync_us");
    // Absent from files written before it was measured: nothing charged.
    if (const auto it = j.find("after_sync_us"); it != j.end() && it->is_number())
        r.costs.afterSyncUs = it->get<double>();
    if (const auto it = j.find("after_sync_pairs"); it != j.end() && it->is_number_integer())
        r.costs.afterSyncPairs = it->get<int>();
    r.costs.source = in.text(j, "", "costs_source");
    if (const json* costs = in.object(j, "", "style_costs")) {
        for (const auto& [name, cost] : costs->items()) {
            const std::string p = "/style_costs/" + name;
            if (!cost.is_object()) {
                in.fail(p, "expected an object");
                continue;
            }
            StyleHostCost& c = r.costs.measured[name];
            c.readUs = in.num(cost, p, "read_us");
            c.stepUs = in.num(cost, p, "step_us");
            // Absent from files written before it was measured.
            if (const auto it = cost.find("read_after_synchronize_us"); it != cost.end() && it->is_number())
                c.readAfterSynchronizeUs = it->get<double>();
        }
    }
    if (const json* reg = in.object(j, "", "regime")) {
        r.regime.dMs = in.num(*reg, "/regime", "d_ms");
        r.regime.gMs = in.num(*reg, "/regime", "g_ms");
        r.regime.label = in.text(*reg, "/regime", "label");
    }
    if (const json* step = in.object(j, "", "step")) {
        r.step.stepHostUs = in.num(*step, "/step", "host_us");
        const auto ops = step->find("ops");
        if (ops == step->end() || !ops->is_array()) {
            in.fail("/step/ops", "expected an array");
        } else {
            for (size_t i = 0; i < ops->size(); ++i) {
                const json& op = (*ops)[i];
                const bool ok = op.is_array() && op.size() == 4
                    && std::all_of(op.begin(), op.end(), [](const json& v) { return v.is_number(); });
                if (!ok) {
                    in.fail("/step/ops/" + std::to_string(i), "expected 4 numbers [issue_us, host_us, gpu_us, stream]");
                    break;
                }
                r.step.ops.push_back(
                    { op[0].get<double>(), op[1].get<double>(), op[2].get<double>(), op[3].get<std::int64_t>() });
            }
        }
        readHostEvents(in, *step, r.step);
    }
    if (!error.empty())
        return std::nullopt;
    return r;
}

} // namespace synctax
