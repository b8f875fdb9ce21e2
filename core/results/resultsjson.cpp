#include "core/results/resultsjson.h"

#include "core/results/replayjson.h"

#include "core/analysis/throttlereasons.h"
#include "core/config/configschema.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace synctax {

namespace {

using nlohmann::json;

// JSON has no NaN or infinity: an unknown number is null.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

// The sweep as a config writes it, so that the config loader reads it back: only the lists swept.
json sweepJson(const SweepSpec& sweep)
{
    json j = json::object();
    if (!sweep.hostWorkUs.empty())
        j[sweepkeys::hostWorkUs.name] = sweep.hostWorkUs;
    if (!sweep.batch.empty())
        j[sweepkeys::batch.name] = sweep.batch;
    return j;
}

json inputJson(const InputSpec& input)
{
    using namespace torchscriptkeys;
    json j { { dimension.name, input.shape }, { dtype.name, input.dtype } };
    if (input.high > 0)
        j[high.name] = input.high;
    return j;
}

// A torchscript model's own keys as its config entry writes them (the file's path absolute).
json torchScriptJson(const TorchScriptSpec& script)
{
    using namespace torchscriptkeys;
    json j { { path.name, script.path } };
    if (script.inputs.size() == 1 && !script.inputsListed) {
        j[input.name] = inputJson(script.inputs.front());
    } else {
        j[inputs.name] = json::array();
        for (const InputSpec& one : script.inputs)
            j[inputs.name].push_back(inputJson(one));
    }
    if (script.target.kind == TargetSpec::Kind::Classes)
        j[target.name] = { { classes.name, script.target.classes } };
    else
        j[target.name] = { { mse.name, script.target.shape } };
    return j;
}

json stepStatsJson(const StepStats& s)
{
    return { { "median", number(s.median) }, { "p10", number(s.p10) }, { "p90", number(s.p90) },
        { "mean", number(s.mean) } };
}

json predictionJson(const Prediction& p)
{
    return { { "overhead_pct", number(p.overheadPct) }, { "regime", p.regime }, { "model", p.model } };
}

// One cell; `group` (its model and mode's) gives its stop reason, where known.
json cellJson(const CellResult& c, const GroupResult* group)
{
    json cell {
        { "model", c.model },
        { "style", c.style },
        { "mode", c.mode },
        { "host_work_us", c.hostWorkUs },
        { "batch", c.batch },
        { "status", c.ok ? "ok" : "failed" },
        { "steps_per_block", c.stepsPerBlock },
        { "steps_measured", c.stepsMeasured },
        { "warmup_steps", c.warmupSteps },
        { "step_ms", stepStatsJson(c.stepMs) },
        { "overhead_pct", nullptr },
        { "naive_best_of_pct", nullptr },
        { "verdict", c.verdict ? json(toString(*c.verdict)) : json(nullptr) },
        { "rounds", c.pairedRounds },
        { "stop_reason", group ? json(group->stopReason) : json(nullptr) },
        { "low_clock_blocks", c.lowClockBlocks },
        { "syncs_per_step", c.syncsPerStep ? number(*c.syncsPerStep) : json(nullptr) },
        { "queue",
            c.queue ? json { { "median_lag_ms", number(c.queue->medianLagMs) },
                { "median_queue_steps", number(c.queue->medianQueueSteps) },
                { "max_queue_steps", c.queue->maxQueueSteps } }
                    : json(nullptr) },
        { "graph_replays", c.graphReplays >= 0 ? json(c.graphReplays) : json(nullptr) },
        { "block_rounds", c.blockRounds },
        { "block_ms_per_step", c.blockStepMs },
        { "block_dispatch_ms", c.blockDispatchMs },
        { "block_first_steps_ms", c.blockFirstStepsMs },
    };
    if (!c.ok)
        cell["error"] = c.error;
    if (c.stepsMeasured == 0)
        cell["step_ms"] = nullptr;
    if (c.overheadPct) {
        cell["overhead_pct"] = { { "estimate", number(c.overheadPct->estimate) },
            { "ci_low", number(c.overheadPct->low) }, { "ci_high", number(c.overheadPct->high) } };
    }
    if (c.naiveBestOfPct)
        cell["naive_best_of_pct"] = number(*c.naiveBestOfPct);
    cell["prediction"] = c.prediction ? predictionJson(*c.prediction) : json(nullptr);
    if (c.collectiveWaitMs)
        cell["collective_wait_ms"] = stepStatsJson(*c.collectiveWaitMs);
    if (const auto& rp = c.rankPrediction) {
        json written = predictionJson(rp->tax);
        written["step_ms"] = number(rp->stepMs);
        written["collective_wait_ms"] = number(rp->collectiveWaitMs);
        written["collective_ms"] = number(rp->collectiveMs);
        cell["rank_prediction"] = written;
    }
    return cell;
}

json cellsJson(const std::vector<CellResult>& cells, const std::vector<GroupResult>& groups)
{
    json written = json::array();
    for (const auto& c : cells) {
        const auto group
            = std::find_if(groups.begin(), groups.end(), [&](const GroupResult& g) { return sameGroup(g, c); });
        written.push_back(cellJson(c, group == groups.end() ? nullptr : &*group));
    }
    return written;
}

json distributedJson(const DistributedResult& d, const std::vector<GroupResult>& groups)
{
    json written { { "rank", d.rank >= 0 ? json(d.rank) : json(nullptr) } };
    json ranks = json::array();
    for (const auto& r : d.ranks) {
        ranks.push_back({ { "rank", r.rank }, { "status", r.status }, { "cells", cellsJson(r.cells, groups) } });
        if (!r.message.empty())
            ranks.back()["message"] = r.message;
        if (!r.folder.empty())
            ranks.back()["folder"] = r.folder;
    }
    written["ranks"] = ranks;
    written["single_process"] = d.singleProcess.empty() ? json(nullptr) : cellsJson(d.singleProcess, groups);
    return written;
}

} // namespace

json toJson(const ExperimentConfig& config)
{
    json models = json::array();
    for (const auto& m : config.models) {
        models.push_back({ { "name", m.name }, { "batch", m.batch }, { "steps_per_block", config.stepsPerBlockFor(m) },
            { "blocks", config.blocksFor(m) }, { "host_work_us", config.hostWorkUsFor(m) },
            { "time_budget_s", config.timeBudgetSFor(m) } });
        if (m.torchscript) {
            models.back().update(torchScriptJson(*m.torchscript));
        } else {
            models.back()["width"] = m.width;
            models.back()["input_size"] = m.inputSize;
            models.back()["classes"] = m.classes;
        }
        if (m.sweep)
            models.back()[configkeys::sweep.name] = sweepJson(*m.sweep);
    }
    json styles = json::array();
    for (const auto& s : config.styles) {
        if (s.n > 0)
            styles.push_back({ { "name", s.name }, { "n", s.n } });
        else
            styles.push_back(s.name);
    }
    json modes = json::array();
    for (Mode m : config.modes)
        modes.push_back(toString(m));
    json written {
        { "synctax", config.version },
        { "name", config.name },
        { "description", config.description },
        { "device", config.device },
        { "seed", config.seed },
        { "steps_per_block", config.stepsPerBlock },
        { "blocks", config.blocks },
        { "min_blocks", config.minBlocks },
        { "target_ci_pp", config.targetCiPp },
        { "time_budget_s", config.timeBudgetS },
        { "processes", config.processes },
        { "warmup", { { "min_steps", config.warmupMinSteps }, { "max_steps", config.warmupMaxSteps } } },
        { "host_work_us", config.hostWorkUs },
        { "optimizer", toString(config.optimizer) },
        { "learning_rate", config.learningRate },
        { "gpu_events", config.gpuEvents },
        { "observer_control", config.observerControl },
        { "sink", toString(config.sink) },
        { "models", models },
        { "styles", styles },
        { "modes", modes },
    };
    if (config.sweep)
        written[configkeys::sweep.name] = sweepJson(*config.sweep);
    if (const auto& d = config.distributed) {
        written[configkeys::distributed.name] = { { distributedkeys::backend.name, toString(d->backend) },
            { distributedkeys::ranks.name, d->ranks }, { distributedkeys::syncOn.name, toString(d->syncOn) },
            { distributedkeys::timeoutS.name, d->timeoutS } };
    }
    return written;
}

json toJson(const ExperimentResult& result)
{
    const Environment& env = result.environment;
    json environment {
        { "synctax_version", env.synctaxVersion },
        { "torch_version", env.torchVersion },
        { "torch_cuda", env.cudaBuild },
        { "device", env.device },
        { "device_name", env.deviceName },
        { "driver", env.driverVersion.empty() ? json(nullptr) : json(env.driverVersion) },
        { "cpu", env.cpu },
        { "cpu_threads", env.cpuThreads },
        { "host", env.host },
        { "pci_bus_id", env.pciBusId.empty() ? json(nullptr) : json(env.pciBusId) },
    };
    json groups = json::array();
    for (const auto& g : result.groups) {
        json drift = nullptr;
        if (g.drift) {
            drift = { { "first_half_ms", number(g.drift->firstHalfMs) },
                { "second_half_ms", number(g.drift->secondHalfMs) }, { "pct", number(g.drift->pct) },
                { "limit_pct", number(g.drift->limitPct) }, { "flagged", g.drift->flagged } };
        }
        json clocks { { "available", g.clocks.available } };
        if (g.clocks.available) {
            clocks["default_sm_mhz"] = g.clocks.defaultMhz;
            clocks["min_sm_mhz"] = g.clocks.minMhz;
            clocks["median_sm_mhz"] = g.clocks.medianMhz;
            clocks["max_sm_mhz"] = g.clocks.maxMhz;
            clocks["blocks"] = g.clocks.blocks;
            clocks["low_clock_blocks"] = g.clocks.lowClockBlocks;
            clocks["throttle_reasons"] = describeThrottleReasons(g.clocks.throttleReasons);
        } else {
            clocks["reason"] = g.clocks.reason;
        }
        json regime { { "available", g.regime.available } };
        if (g.regime.available) {
            regime["d_ms"] = number(g.regime.dMs);
            regime["g_ms"] = number(g.regime.gMs);
            regime["l_us"] = number(g.regime.lUs);
            regime["k"] = g.regime.k > 0 ? json(g.regime.k) : json(nullptr);
            regime["h_us"] = number(g.regime.hUs);
            regime["label"] = g.regime.label;
            regime["queue_limited"] = g.regime.queueLimited;
        } else {
            regime["reason"] = g.regime.reason;
        }
        groups.push_back({ { "model", g.model }, { "mode", g.mode }, { "host_work_us", g.hostWorkUs },
            { "batch", g.batch }, { "regime", regime }, { "warmup_steps", g.warmupSteps }, { "rounds", g.rounds },
            { "stop_reason", g.stopReason }, { "noise_floor_pct", number(g.noiseFloorPct) }, { "drift", drift },
            { "clocks", clocks } });
        if (!g.processRounds.empty())
            groups.back()["process_rounds"] = g.processRounds;
        groups.back()["noise_verdict"] = toString(g.noiseVerdict);
        if (g.replay)
            groups.back()["replay"] = replayToJson(*g.replay);
        else if (!g.replayAbsent.empty())
            groups.back()["replay"] = { { "absent", g.replayAbsent } };
    }
    const json cells = cellsJson(result.cells, result.groups);
    json orders = json::array();
    for (const auto& o : result.roundOrders)
        orders.push_back({ { "model", o.model }, { "mode", o.mode }, { "host_work_us", o.hostWorkUs },
            { "batch", o.batch }, { "round", o.round }, { "styles", o.styles } });
    json written {
        { "schema", resultsSchema },
        { "started_at", result.startedAt },
        { "duration_s", number(result.durationS) },
        { "stopped", result.stopped },
        { "dropped_step_records", result.droppedRecords },
        { "notes", result.notes },
        { "environment", environment },
        { "config", toJson(result.config) },
        { "groups", groups },
        { "cells", cells },
        { "round_orders", orders },
    };
    if (result.distributed)
        written["distributed"] = distributedJson(*result.distributed, result.groups);
    return written;
}

} // namespace synctax
