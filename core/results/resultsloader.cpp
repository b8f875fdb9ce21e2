#include "core/results/resultsloader.h"

#include "core/results/cellchecks.h"
#include "core/results/journalreader.h"
#include "core/results/outputlock.h"
#include "core/results/replayjson.h"
#include "core/results/runoutputs.h"

#include "core/config/checkedreader.h"
#include "core/config/configloader.h"
#include "core/config/inputsource.h"
#include "core/files/bytestream.h"
#include "core/results/resultsjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>

namespace synctax {

namespace {

using nlohmann::json;

constexpr double largest = 1e12; // no time, percentage or count SyncTax writes comes near this

const ChoiceKey<Verdict> verdicts { "verdict",
    { { "baseline", Verdict::Baseline }, { "significant", Verdict::Significant },
        { "within_noise", Verdict::WithinNoise } } };

std::string kindOf(const json& j)
{
    switch (j.type()) {
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "an array";
    case json::value_t::string:
        return "a string";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::null:
        return "null";
    default:
        return "a number";
    }
}

// Walks the document, collecting one error per bad value, each named by its JSON pointer.
class ResultsReader : public CheckedReader {
public:
    ResultsReader(std::string source, std::vector<ConfigError>& errors)
        : CheckedReader(std::move(source), errors, Wording::Generic)
    {
    }

    static ValuePlace at(const std::string& pointer) { return { pointer.empty() ? "/" : pointer }; }

    using CheckedReader::error;
    void error(const std::string& pointer, const std::string& message) { error(at(pointer), message); }

    // The member `key` of `object`; reports it when missing (and not optional) or of another type.
    const json* member(
        const json& object, const std::string& pointer, const char* key, json::value_t type, bool optional = false)
    {
        const auto it = object.find(key);
        if (it == object.end() || (optional && it->is_null())) {
            if (!optional)
                error(pointer + "/" + key, "missing");
            return nullptr;
        }
        const bool numberWanted = type == json::value_t::number_float;
        if (numberWanted ? !it->is_number() : it->type() != type) {
            expected(at(pointer + "/" + key), kindOf(json(type)), kindOf(*it));
            return nullptr;
        }
        return &*it;
    }

    std::string text(const json& object, const std::string& pointer, const char* key)
    {
        const json* j = member(object, pointer, key, json::value_t::string);
        return j ? j->get<std::string>() : std::string();
    }

    double number(const json& object, const std::string& pointer, const char* key, double min = -largest,
        double max = largest, bool optional = false, double fallback = NAN)
    {
        const json* j = member(object, pointer, key, json::value_t::number_float, optional);
        if (!j)
            return fallback;
        return checked(j->get<double>(), pointer + "/" + key, min, max);
    }

    double checked(double v, const std::string& pointer, double min, double max)
    {
        return CheckedReader::number(at(pointer), v, "", "", min, max).value_or(NAN);
    }

    // An optional integer: `fallback` when absent or null.
    int64_t optionalInteger(
        const json& object, const std::string& pointer, const char* key, int64_t min, int64_t max, int64_t fallback)
    {
        const auto it = object.find(key);
        if (it == object.end() || it->is_null())
            return fallback;
        return integer(object, pointer, key, min, max);
    }

    int64_t integer(const json& object, const std::string& pointer, const char* key, int64_t min, int64_t max)
    {
        const json* j = member(object, pointer, key, json::value_t::number_float);
        if (!j)
            return 0;
        std::optional<int64_t> value;
        if (j->is_number_unsigned() && j->get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()))
            value = std::numeric_limits<int64_t>::max(); // beyond every bound: reported as out of range
        else if (j->is_number_integer())
            value = j->get<int64_t>();
        return CheckedReader::integer(at(pointer + "/" + key), value, "", min, max).value_or(0);
    }

    // A record's host work and batch (cells, groups, round orders): files written before they were
    // get the config's for the model, which is what every group of such a run ran at.
    template <typename T>
    void readSweepPoint(const json& object, const std::string& pointer, const ExperimentConfig& config, T& record)
    {
        const auto model = std::find_if(
            config.models.begin(), config.models.end(), [&](const ModelSpec& m) { return m.name == record.model; });
        const int64_t hostWorkUs = model != config.models.end() ? config.hostWorkUsFor(*model) : config.hostWorkUs;
        const int64_t batch = model != config.models.end() ? model->batch : 0;
        record.hostWorkUs = optionalInteger(
            object, pointer, "host_work_us", configkeys::hostWorkUs.min, configkeys::hostWorkUs.max, hostWorkUs);
        // 0: a batch nobody recorded (a result put together by hand).
        record.batch = optionalInteger(object, pointer, "batch", 0, modelkeys::batch.max, batch);
    }

    void read(const json& root, ExperimentResult& r)
    {
        if (!root.is_object()) {
            error("", "expected an object (a synctax-run results.json), found " + kindOf(root));
            return;
        }
        const std::string schema = text(root, "", "schema");
        if (!schema.empty() && schema != resultsSchema) {
            error("/schema", "unsupported schema '" + schema + "'; expected " + resultsSchema);
            return;
        }
        r.startedAt = text(root, "", "started_at");
        r.durationS = number(root, "", "duration_s", 0);
        if (const json* s = member(root, "", "stopped", json::value_t::boolean))
            r.stopped = s->get<bool>();
        if (const json* env = member(root, "", "environment", json::value_t::object))
            readEnvironment(*env, r.environment);
        if (const json* config = member(root, "", "config", json::value_t::object))
            readConfig(*config, r.config);
        if (const json* cells = member(root, "", "cells", json::value_t::array)) {
            const size_t errorsBefore = errorCount();
            for (size_t i = 0; i < cells->size(); ++i)
                readCell((*cells)[i], "/cells/" + std::to_string(i), r);
            checkCellList(r.cells, "/cells", r.config, errorsBefore);
        }
        if (const json* groups = member(root, "", "groups", json::value_t::array, true)) {
            for (size_t i = 0; i < groups->size(); ++i)
                readGroup((*groups)[i], "/groups/" + std::to_string(i), r);
        }
        r.droppedRecords = uint64_t(optionalInteger(root, "", "dropped_step_records", 0, int64_t(largest), 0));
        if (const json* orders = member(root, "", "round_orders", json::value_t::array, true)) {
            for (size_t i = 0; i < orders->size(); ++i)
                readRoundOrder((*orders)[i], "/round_orders/" + std::to_string(i), r);
        }
        if (const json* d = member(root, "", "distributed", json::value_t::object, true))
            readDistributed(*d, r);
        if (const json* notes = member(root, "", "notes", json::value_t::array, true)) {
            for (size_t i = 0; i < notes->size(); ++i) {
                if ((*notes)[i].is_string())
                    r.notes.push_back((*notes)[i].get<std::string>());
                else
                    error("/notes/" + std::to_string(i), "expected a string, found " + kindOf((*notes)[i]));
            }
        }
    }

private:
    // What the runner guarantees of a list of cells (cellchecks.h), once each cell reads on its own:
    // a cell that did not read would shift the pointers of those after it.
    void checkCellList(const std::vector<CellResult>& cells, const std::string& pointer, const ExperimentConfig& config,
        size_t errorsBefore)
    {
        if (errorCount() != errorsBefore)
            return;
        for (const CellProblem& problem : cellListProblems(cells, pointer, config))
            error(problem.pointer, problem.message);
    }

    void readEnvironment(const json& e, Environment& env)
    {
        env.device = text(e, "/environment", "device");
        env.torchVersion = text(e, "/environment", "torch_version");
        env.synctaxVersion = text(e, "/environment", "synctax_version");
        env.deviceName = text(e, "/environment", "device_name");
        env.cpu = text(e, "/environment", "cpu");
        env.host = text(e, "/environment", "host");
        if (const json* d = member(e, "/environment", "driver", json::value_t::string, true))
            env.driverVersion = d->get<std::string>();
        if (const json* c = member(e, "/environment", "torch_cuda", json::value_t::boolean, true))
            env.cudaBuild = c->get<bool>();
    }

    void readConfig(const json& c, ExperimentConfig& config)
    {
        // The config as run is valid config YAML (JSON is YAML): the config loader checks it.
        const ConfigLoadResult loaded = loadConfigText(c.dump(1), source() + " /config", ModelFiles::NotChecked);
        if (!loaded.config) {
            for (const auto& e : loaded.errors)
                error("/config", e.message);
            return;
        }
        config = *loaded.config;
    }

    // The queue model's tax, its regime and which model made it ("prediction", "rank_prediction").
    Prediction prediction(const json& pr, const std::string& pp)
    {
        Prediction read { number(pr, pp, "overhead_pct", -100, largest), text(pr, pp, "regime") };
        if (const json* m = member(pr, pp, "model", json::value_t::string, true))
            read.model = m->get<std::string>();
        return read;
    }

    void readCell(const json& c, const std::string& p, ExperimentResult& r)
    {
        if (!c.is_object()) {
            error(p, "expected an object, found " + kindOf(c));
            return;
        }
        CellResult cell;
        cell.model = text(c, p, "model");
        cell.mode = text(c, p, "mode");
        cell.style = text(c, p, "style");
        readSweepPoint(c, p, r.config, cell);
        const std::string status = text(c, p, "status");
        if (status != "ok" && status != "failed" && !status.empty())
            error(p + "/status", "expected \"ok\" or \"failed\", found \"" + status + "\"");
        cell.ok = status == "ok";
        if (!cell.ok) {
            if (const json* e = member(c, p, "error", json::value_t::string, true))
                cell.error = e->get<std::string>();
        }
        cell.stepsMeasured = integer(c, p, "steps_measured", 0, int64_t(largest));
        cell.stepsPerBlock = optionalInteger(c, p, "steps_per_block", 0, 100'000'000, 0);
        cell.warmupSteps = optionalInteger(c, p, "warmup_steps", 0, int64_t(largest), 0);
        cell.lowClockBlocks = int(optionalInteger(c, p, "low_clock_blocks", 0, 100'000'000, 0));
        cell.graphReplays = optionalInteger(c, p, "graph_replays", 0, int64_t(largest), -1);
        cell.pairedRounds = int(optionalInteger(c, p, "rounds", 0, 100'000'000, 0));
        if (const json* s = member(c, p, "step_ms", json::value_t::object, true))
            cell.stepMs = stepStats(*s, p + "/step_ms");
        if (const json* w = member(c, p, "collective_wait_ms", json::value_t::object, true))
            cell.collectiveWaitMs = stepStats(*w, p + "/collective_wait_ms");
        if (const json* o = member(c, p, "overhead_pct", json::value_t::object, true)) {
            const std::string op = p + "/overhead_pct";
            const Interval i { number(*o, op, "estimate", -100, largest), number(*o, op, "ci_low", -100, largest),
                number(*o, op, "ci_high", -100, largest) };
            if (i.low > i.estimate || i.estimate > i.high)
                error(op, "the interval does not hold its estimate (ci_low <= estimate <= ci_high)");
            cell.overheadPct = i;
        }
        if (const json* n = member(c, p, "naive_best_of_pct", json::value_t::number_float, true))
            cell.naiveBestOfPct = checked(n->get<double>(), p + "/naive_best_of_pct", -100, largest);
        if (const json* pr = member(c, p, "prediction", json::value_t::object, true))
            cell.prediction = prediction(*pr, p + "/prediction");
        if (const json* rp = member(c, p, "rank_prediction", json::value_t::object, true)) {
            const std::string pp = p + "/rank_prediction";
            cell.rankPrediction = RankPrediction { prediction(*rp, pp), number(*rp, pp, "step_ms", 0),
                number(*rp, pp, "collective_wait_ms", 0), number(*rp, pp, "collective_ms", 0) };
        }
        if (const json* v = member(c, p, "verdict", json::value_t::string, true)) {
            if (const auto verdict = choice(at(p + "/verdict"), v->get<std::string>(), verdicts))
                cell.verdict = *verdict;
        }
        if (const json* q = member(c, p, "queue", json::value_t::object, true)) {
            const std::string qp = p + "/queue";
            cell.queue = QueueSummary { number(*q, qp, "median_lag_ms", 0), number(*q, qp, "median_queue_steps", 0),
                int(integer(*q, qp, "max_queue_steps", 0, 1'000'000)) };
        }
        if (const json* s = member(c, p, "syncs_per_step", json::value_t::number_float, true))
            cell.syncsPerStep = checked(s->get<double>(), p + "/syncs_per_step", 0, 1e6);
        readBlocks(c, p, cell);
        r.cells.push_back(cell);
    }

    void readDistributed(const json& d, ExperimentResult& r)
    {
        DistributedResult distributed;
        distributed.rank = int(optionalInteger(d, "/distributed", "rank", 0, 63, -1));
        // Each cell list read as the top level's is, into a result of its own.
        const auto readCells = [&](const json& cells, const std::string& p) {
            ExperimentResult part;
            part.config = r.config;
            const size_t errorsBefore = errorCount();
            for (size_t i = 0; i < cells.size(); ++i)
                readCell(cells[i], p + "/" + std::to_string(i), part);
            checkCellList(part.cells, p, r.config, errorsBefore);
            return part.cells;
        };
        if (const json* ranks = member(d, "/distributed", "ranks", json::value_t::array, true)) {
            for (size_t k = 0; k < ranks->size(); ++k) {
                const json& rank = (*ranks)[k];
                const std::string p = "/distributed/ranks/" + std::to_string(k);
                if (!rank.is_object()) {
                    error(p, "expected an object, found " + kindOf(rank));
                    continue;
                }
                RankOutcome outcome;
                outcome.rank = int(integer(rank, p, "rank", 0, 63));
                outcome.status = text(rank, p, "status");
                if (const json* m = member(rank, p, "message", json::value_t::string, true))
                    outcome.message = m->get<std::string>();
                if (const json* cells = member(rank, p, "cells", json::value_t::array))
                    outcome.cells = readCells(*cells, p + "/cells");
                if (const json* f = member(rank, p, "folder", json::value_t::string, true))
                    outcome.folder = besideFolder(f->get<std::string>(), p + "/folder");
                distributed.ranks.push_back(outcome);
            }
        }
        if (const json* single = member(d, "/distributed", "single_process", json::value_t::array, true))
            distributed.singleProcess = readCells(*single, "/distributed/single_process");
        r.distributed = distributed;
    }

    // A rank's folder is read from beside the results file: a file from elsewhere points nowhere else.
    std::string besideFolder(const std::string& folder, const std::string& p)
    {
        const std::filesystem::path path(folder);
        const bool outside
            = std::any_of(path.begin(), path.end(), [](const std::filesystem::path& part) { return part == ".."; });
        if (folder.empty() || path.is_absolute() || path.has_root_name() || outside) {
            error(p, "'" + folder + "' is not a folder beside the results file");
            return {};
        }
        return folder;
    }

    StepStats stepStats(const json& s, const std::string& sp)
    {
        return { number(s, sp, "median", 0), number(s, sp, "p10", 0), number(s, sp, "p90", 0),
            number(s, sp, "mean", 0) };
    }

    // A per-block list beside block_rounds: one entry per round, else reported at `pointer`.
    bool oneEntryPerRound(const json& list, const json& rounds, const std::string& pointer)
    {
        if (list.size() == rounds.size())
            return true;
        error(pointer,
            "has " + std::to_string(list.size()) + " entries for " + std::to_string(rounds.size()) + " block_rounds");
        return false;
    }

    void readBlocks(const json& c, const std::string& p, CellResult& cell)
    {
        const json* rounds = member(c, p, "block_rounds", json::value_t::array);
        const json* ms = member(c, p, "block_ms_per_step", json::value_t::array);
        if (!rounds || !ms)
            return;
        if (!oneEntryPerRound(*ms, *rounds, p + "/block_ms_per_step"))
            return;
        for (size_t i = 0; i < rounds->size(); ++i) {
            const json& round = (*rounds)[i];
            const json& value = (*ms)[i];
            if (!round.is_number_integer() || round.get<double>() < 0 || round.get<double>() > largest) {
                error(p + "/block_rounds/" + std::to_string(i), "expected a round number");
                return;
            }
            if (!value.is_number()) {
                error(p + "/block_ms_per_step/" + std::to_string(i), "expected a number, found " + kindOf(value));
                return;
            }
            cell.blockRounds.push_back(int(round.get<int64_t>()));
            cell.blockStepMs.push_back(
                checked(value.get<double>(), p + "/block_ms_per_step/" + std::to_string(i), 1e-9, largest));
        }
        readBlockDispatch(c, p, *rounds, cell);
        readBlockFirstSteps(c, p, *rounds, cell);
    }

    // Each entry of a per-block list beside block_rounds that older files lack (absent or empty: none),
    // with its pointer, until `read` returns false; one that is not one entry per round is reported.
    template <typename Read>
    void readPerRound(const json& c, const std::string& p, const char* key, const json& rounds, Read&& read)
    {
        const json* list = member(c, p, key, json::value_t::array, true);
        const std::string at = p + "/" + key;
        if (!list || list->empty() || !oneEntryPerRound(*list, rounds, at))
            return;
        for (size_t i = 0; i < list->size(); ++i) {
            if (!read((*list)[i], at + "/" + std::to_string(i)))
                return;
        }
    }

    // Files from before the host's time per block was kept have none.
    void readBlockDispatch(const json& c, const std::string& p, const json& rounds, CellResult& cell)
    {
        readPerRound(c, p, "block_dispatch_ms", rounds, [&](const json& value, const std::string& at) {
            if (!value.is_number()) {
                error(at, "expected a number, found " + kindOf(value));
                return false;
            }
            cell.blockDispatchMs.push_back(checked(value.get<double>(), at, 0, largest));
            return true;
        });
    }

    // Each block's first two steps' host time, [first, second]; files from before they were kept, and
    // blocks of one step, have none.
    void readBlockFirstSteps(const json& c, const std::string& p, const json& rounds, CellResult& cell)
    {
        readPerRound(c, p, "block_first_steps_ms", rounds, [&](const json& pair, const std::string& at) {
            if (!pair.is_array() || pair.size() != 2) {
                error(at,
                    "expected a list of two numbers, found "
                        + (pair.is_array() ? std::to_string(pair.size()) + " entries" : kindOf(pair)));
                return false;
            }
            std::array<double, 2> ms {};
            for (size_t k = 0; k < 2; ++k) {
                const std::string atK = at + "/" + std::to_string(k);
                if (!pair[k].is_number()) {
                    error(atK, "expected a number, found " + kindOf(pair[k]));
                    return false;
                }
                ms[k] = checked(pair[k].get<double>(), atK, 0, largest);
            }
            cell.blockFirstStepsMs.push_back(ms);
            return true;
        });
    }

    void readRoundOrder(const json& o, const std::string& p, ExperimentResult& r)
    {
        if (!o.is_object()) {
            error(p, "expected an object, found " + kindOf(o));
            return;
        }
        RoundOrder order;
        order.model = text(o, p, "model");
        order.mode = text(o, p, "mode");
        readSweepPoint(o, p, r.config, order);
        order.round = int(integer(o, p, "round", 0, 100'000'000));
        if (const json* styles = member(o, p, "styles", json::value_t::array)) {
            for (size_t i = 0; i < styles->size(); ++i) {
                if (!(*styles)[i].is_string()) {
                    error(p + "/styles/" + std::to_string(i), "expected a string, found " + kindOf((*styles)[i]));
                    return;
                }
                order.styles.push_back((*styles)[i].get<std::string>());
            }
        }
        r.roundOrders.push_back(order);
    }

    void readGroup(const json& g, const std::string& p, ExperimentResult& r)
    {
        if (!g.is_object()) {
            error(p, "expected an object, found " + kindOf(g));
            return;
        }
        GroupResult group;
        group.model = text(g, p, "model");
        group.mode = text(g, p, "mode");
        readSweepPoint(g, p, r.config, group);
        group.stopReason = text(g, p, "stop_reason");
        group.rounds = int(integer(g, p, "rounds", 0, 100'000'000));
        group.noiseFloorPct = number(g, p, "noise_floor_pct", 0, largest, true, 0);
        readNoiseVerdict(g, p, r.cells, group);
        group.warmupSteps = optionalInteger(g, p, "warmup_steps", 0, int64_t(largest), 0);
        if (const json* pr = member(g, p, "process_rounds", json::value_t::array, true)) {
            for (size_t i = 0; i < pr->size(); ++i) {
                const json& v = (*pr)[i];
                if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > 100'000'000) {
                    error(p + "/process_rounds/" + std::to_string(i), "expected a number of rounds");
                    break;
                }
                group.processRounds.push_back(int(v.get<int64_t>()));
            }
        }
        if (const json* cl = member(g, p, "clocks", json::value_t::object, true)) {
            const std::string cp = p + "/clocks";
            const json* available = member(*cl, cp, "available", json::value_t::boolean);
            group.clocks.available = available && available->get<bool>();
            if (group.clocks.available) {
                constexpr int64_t mhz = 100'000;
                group.clocks.defaultMhz = unsigned(optionalInteger(*cl, cp, "default_sm_mhz", 0, mhz, 0));
                group.clocks.minMhz = unsigned(optionalInteger(*cl, cp, "min_sm_mhz", 0, mhz, 0));
                group.clocks.medianMhz = unsigned(optionalInteger(*cl, cp, "median_sm_mhz", 0, mhz, 0));
                group.clocks.maxMhz = unsigned(optionalInteger(*cl, cp, "max_sm_mhz", 0, mhz, 0));
                group.clocks.blocks = int(optionalInteger(*cl, cp, "blocks", 0, 100'000'000, 0));
                group.clocks.lowClockBlocks = int(optionalInteger(*cl, cp, "low_clock_blocks", 0, 100'000'000, 0));
            } else if (const json* reason = member(*cl, cp, "reason", json::value_t::string, true)) {
                group.clocks.reason = reason->get<std::string>();
            }
        }
        if (const json* reg = member(g, p, "regime", json::value_t::object, true)) {
            const std::string rp = p + "/regime";
            const json* available = member(*reg, rp, "available", json::value_t::boolean);
            group.regime.available = available && available->get<bool>();
            if (group.regime.available) {
                group.regime.dMs = number(*reg, rp, "d_ms", 0);
                group.regime.gMs = number(*reg, rp, "g_ms", 0);
                group.regime.lUs = number(*reg, rp, "l_us", 0);
                group.regime.hUs = number(*reg, rp, "h_us", 0);
                group.regime.label = text(*reg, rp, "label");
                if (const json* k = member(*reg, rp, "k", json::value_t::number_float, true))
                    group.regime.k = k->is_number_integer() ? k->get<int64_t>() : -1;
                if (const json* q = member(*reg, rp, "queue_limited", json::value_t::boolean, true))
                    group.regime.queueLimited = q->get<bool>();
            } else if (const json* reason = member(*reg, rp, "reason", json::value_t::string, true)) {
                group.regime.reason = reason->get<std::string>();
            }
        }
        readReplay(g, p, group);
        r.groups.push_back(group);
    }

    // The captured replay, when the run had one (files written before it have none).
    void readReplay(const json& g, const std::string& p, GroupResult& group)
    {
        const json* rep = member(g, p, "replay", json::value_t::object, true);
        if (!rep)
            return;
        if (const auto absent = rep->find("absent"); absent != rep->end() && absent->is_string()) {
            group.replayAbsent = absent->get<std::string>();
            return;
        }
        std::string message;
        group.replay = replayFromJson(*rep, message);
        if (!group.replay) {
            const auto colon = message.find(": ");
            error(p + "/replay" + message.substr(0, colon), message.substr(colon + 2));
        }
    }

    // Files written before the verdict was get it judged from their A/A cell (read before the groups).
    void readNoiseVerdict(const json& g, const std::string& p, const std::vector<CellResult>& cells, GroupResult& group)
    {
        const json* v = member(g, p, "noise_verdict", json::value_t::string, true);
        if (!v) {
            group.noiseVerdict = judgeNoise(group, cells);
            return;
        }
        const std::string name = v->get<std::string>();
        if (const auto verdict = noiseVerdictFromString(name))
            group.noiseVerdict = *verdict;
        else
            error(p + "/noise_verdict", "expected " + noiseVerdictNames() + ", found \"" + name + "\"");
    }
};

// 1-based line and column of a byte offset.
std::pair<int, int> lineAndColumn(const std::string& text, size_t offset)
{
    int line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return { line, column };
}

} // namespace

ResultsLoadResult loadResultsText(const std::string& text, const std::string& sourceName)
{
    ResultsLoadResult result;
    // nlohmann reads a NUL as the text's end: a binary file is said to be one.
    if (const size_t nul = text.find('\0'); nul != std::string::npos) {
        const auto [line, column] = lineAndColumn(text, nul);
        result.errors.push_back(
            { sourceName, line, column, "a NUL byte; expected JSON text (is this a binary file?)" });
        return result;
    }
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& e) {
        const auto [line, column] = lineAndColumn(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string message = e.what();
        const auto cut = message.find("syntax error");
        result.errors.push_back({ sourceName, line, column,
            "not valid JSON: " + (cut == std::string::npos ? message : message.substr(cut)) });
        return result;
    } catch (const std::exception& e) {
        result.errors.push_back({ sourceName, 0, 0, std::string("not valid JSON: ") + e.what() });
        return result;
    }
    return loadResultsJson(root, sourceName);
}

ResultsLoadResult loadResultsJson(const nlohmann::json& root, const std::string& sourceName)
{
    ResultsLoadResult result;
    ExperimentResult r;
    ResultsReader reader(sourceName, result.errors);
    reader.read(root, r);
    if (result.errors.empty())
        result.result = std::move(r);
    return result;
}

namespace {

// The stream's text until its end, or until maxBytes.
std::string textOf(ByteStream& stream, std::size_t maxBytes)
{
    std::string text;
    for (char c = stream.Take(); c != '\0' && text.size() < maxBytes; c = stream.Take())
        text.push_back(c);
    return text;
}

} // namespace

ResultsLoadResult loadResultsFile(const std::string& path)
{
    ResultsLoadResult result;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        const std::filesystem::path dir(path);
        if (std::filesystem::exists(dir / resultsFileName, ec))
            return loadResultsFile((dir / resultsFileName).string());
        if (std::filesystem::exists(dir / journalFileName, ec))
            return loadJournalFile((dir / journalFileName).string());
        // A run spread over processes killed before it merged them: each process-K/ holds its own.
        const bool processes = std::filesystem::exists(dir / "process-1" / journalFileName, ec);
        result.errors.push_back({ path, 0, 0,
            std::string("is a folder with neither ") + resultsFileName + " nor " + journalFileName
                + "; expected a results.json file or a run's folder"
                + (processes ? " (each process-K/ in it holds its process's: open one of them)" : "") });
        return result;
    }
    const std::optional<std::string> bytes = readInputFile(path, "a results.json file", result.errors);
    if (!bytes)
        return result;
    ByteStream stream(*bytes);
    stream.Peek(); // reads the first chunk, which tells gzip from text
    if (!stream.gzip()) {
        if (startsAJournal(*bytes))
            return loadJournalText(
                *bytes, path, OutputLock::inspect(std::filesystem::path(path).parent_path().string()));
        return loadResultsText(*bytes, path);
    }
    const std::string text = textOf(stream, std::string().max_size());
    if (!stream.gzipError().empty()) {
        result.errors.push_back({ path, 0, 0,
            "expected gzip data: " + stream.gzipError() + " (after " + std::to_string(text.size())
                + " bytes of text)" });
        return result;
    }
    return loadResultsText(text, path);
}

TextHead textHead(const std::string& path, std::size_t maxBytes)
{
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file)
        return {};
    ByteStream stream(file.get());
    TextHead head;
    head.text = textOf(stream, maxBytes);
    head.gzip = stream.gzip();
    return head;
}

} // namespace synctax
