// The A/B of a probe folder followed while it is written. It ports the probe's own method
// (probe/synctax_probe/stats.py: the geometric mean of the paired ratios style / `none` of each
// round, with a percentile bootstrap over rounds drawn by Python's random.Random(seed + i)), not
// SyncTax's pairedOverheadPct (trimmed, expanded interval): the window shows this beside the
// probe's ab.json, and once the job ends the two must say the same numbers. Python's Mersenne
// Twister, its seeding and math.fsum are reproduced so that they do, to rounding.
#include "core/probe/probefollow.h"

#include "core/statistics/statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace synctax {

namespace {

// MT19937 seeded as CPython seeds random.Random(n) (init_by_array over n's 32-bit words), drawing
// random() as CPython does (53 bits from two words).
class PythonRandom {
public:
    explicit PythonRandom(uint64_t seed)
    {
        std::vector<uint32_t> key;
        for (uint64_t n = seed; n > 0; n >>= 32)
            key.push_back(static_cast<uint32_t>(n & 0xffffffffU));
        if (key.empty())
            key.push_back(0);
        initGenrand(19650218U);
        std::size_t i = 1;
        std::size_t j = 0;
        for (std::size_t k = std::max(n, key.size()); k > 0; --k) {
            m_mt[i] = (m_mt[i] ^ ((m_mt[i - 1] ^ (m_mt[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
            ++i;
            ++j;
            if (i >= n) {
                m_mt[0] = m_mt[n - 1];
                i = 1;
            }
            if (j >= key.size())
                j = 0;
        }
        for (std::size_t k = n - 1; k > 0; --k) {
            m_mt[i] = (m_mt[i] ^ ((m_mt[i - 1] ^ (m_mt[i - 1] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
            ++i;
            if (i >= n) {
                m_mt[0] = m_mt[n - 1];
                i = 1;
            }
        }
        m_mt[0] = 0x80000000U;
        m_index = n;
    }

    double random()
    {
        const uint32_t a = next() >> 5;
        const uint32_t b = next() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

private:
    static constexpr std::size_t n = 624;
    static constexpr std::size_t m = 397;

    void initGenrand(uint32_t s)
    {
        m_mt[0] = s;
        for (std::size_t i = 1; i < n; ++i)
            m_mt[i] = 1812433253U * (m_mt[i - 1] ^ (m_mt[i - 1] >> 30)) + static_cast<uint32_t>(i);
    }

    uint32_t next()
    {
        if (m_index >= n) {
            for (std::size_t k = 0; k < n; ++k) {
                const uint32_t y = (m_mt[k] & 0x80000000U) | (m_mt[(k + 1) % n] & 0x7fffffffU);
                m_mt[k] = m_mt[(k + m) % n] ^ (y >> 1) ^ ((y & 1U) != 0 ? 0x9908b0dfU : 0U);
            }
            m_index = 0;
        }
        uint32_t y = m_mt[m_index++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= y >> 18;
        return y;
    }

    std::array<uint32_t, n> m_mt {};
    std::size_t m_index = n;
};

// math.fsum: the correctly rounded sum (Shewchuk's partials, with CPython's final half-way step).
double fsum(const std::vector<double>& values)
{
    std::vector<double> partials;
    for (double x : values) {
        std::size_t i = 0;
        for (double y : partials) {
            if (std::abs(x) < std::abs(y))
                std::swap(x, y);
            const double hi = x + y;
            const double lo = y - (hi - x);
            if (lo != 0.0)
                partials[i++] = lo;
            x = hi;
        }
        partials.resize(i);
        partials.push_back(x);
    }
    std::size_t k = partials.size();
    if (k == 0)
        return 0.0;
    double hi = partials[--k];
    double lo = 0;
    while (k > 0) {
        const double x = hi;
        const double y = partials[--k];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0.0)
            break;
    }
    if (k > 0 && ((lo < 0 && partials[k - 1] < 0) || (lo > 0 && partials[k - 1] > 0))) {
        const double y = lo * 2;
        const double x = hi + y;
        if (y == x - hi)
            hi = x;
    }
    return hi;
}

double pct(double logRatio) { return (std::exp(logRatio) - 1.0) * 100.0; }

// stats.bootstrap_interval: the mean log ratio and the 2.5th and 97.5th of its resampled means,
// read at the indices the probe reads them.
Interval bootstrapInterval(const std::vector<double>& logs, int resamples, uint64_t seed)
{
    const std::size_t count = logs.size();
    PythonRandom rng(seed);
    std::vector<double> boot(static_cast<std::size_t>(resamples));
    std::vector<double> sample(count);
    for (double& mean : boot) {
        for (double& x : sample)
            x = logs[static_cast<std::size_t>(std::floor(rng.random() * static_cast<double>(count)))];
        mean = fsum(sample) / static_cast<double>(count);
    }
    std::sort(boot.begin(), boot.end());
    const auto at = [&](double q) {
        const int i = static_cast<int>(resamples * q) - 1;
        return boot[static_cast<std::size_t>(std::clamp(i, 0, resamples - 1))];
    };
    return { pct(fsum(logs) / static_cast<double>(count)), pct(at(0.025)), pct(at(0.975)) };
}

} // namespace

ProbeLiveAb liveAb(const std::vector<ProbeBlock>& blocks) { return liveAb(blocks, 2000, 1); }

ProbeLiveAb liveOf(const ProbeAb& ab)
{
    const auto interval = [](const std::optional<ProbeEstimate>& e) {
        return e ? std::optional<Interval>(Interval { e->pct, e->ciLow, e->ciHigh }) : std::nullopt;
    };
    return { ab.rounds, interval(ab.item), interval(ab.control) };
}

bool isAbTreatment(const std::string& style)
{
    return !style.empty() && style != "none" && style != "none_aa" && style != "calib";
}

std::string abTreatment(const std::vector<ProbeBlock>& blocks, const std::string& abOption)
{
    const auto treatment = std::find_if(
        blocks.begin(), blocks.end(), [](const ProbeBlock& b) { return b.round && isAbTreatment(b.style); });
    if (treatment != blocks.end())
        return treatment->style;
    const std::string asRun = abOption.substr(0, abOption.find(':'));
    return asRun.empty() ? std::string("item") : asRun;
}

ProbeLiveAb liveAb(const std::vector<ProbeBlock>& blocks, int resamples, uint64_t seed)
{
    // A round is complete with one block of each style (a later block of a style replaces the
    // earlier, as in the probe); folders from before the calibration block have three styles.
    const bool hasCalib
        = std::any_of(blocks.begin(), blocks.end(), [](const ProbeBlock& b) { return b.style == "calib"; });
    const std::string treatment = abTreatment(blocks);
    std::map<int, std::map<std::string, double>> byRound;
    std::set<int> withoutLine; // rounds whose defer block had no line yet: the probe leaves them out
    for (const ProbeBlock& b : blocks) {
        if (!b.round)
            continue;
        byRound[*b.round][b.style] = b.msPerStep;
        if (b.style == "defer") {
            if (b.deferredSite)
                withoutLine.erase(*b.round);
            else
                withoutLine.insert(*b.round);
        }
    }
    std::vector<double> item;
    std::vector<double> control;
    ProbeLiveAb ab;
    for (const auto& round : byRound) {
        const std::map<std::string, double>& styles = round.second;
        const auto has = [&](const std::string& style) {
            const auto it = styles.find(style);
            return it != styles.end() && it->second > 0;
        };
        if (!has("none") || !has("none_aa") || !has(treatment) || (hasCalib && !has("calib"))
            || withoutLine.count(round.first) > 0)
            continue;
        const double none = styles.at("none");
        item.push_back(std::log(styles.at(treatment) / none));
        control.push_back(std::log(styles.at("none_aa") / none));
        ++ab.rounds;
    }
    if (ab.rounds < 2 || resamples < 1)
        return ab;
    // The probe compares the treatment, none_aa, calib in that order, each with the seed plus its index.
    ab.item = bootstrapInterval(item, resamples, seed);
    ab.control = bootstrapInterval(control, resamples, seed + 1);
    return ab;
}

namespace {

// --ab defer's line and its reads as the defer blocks give them (ab.json's `defer` in part): the
// line they last deferred, their reads late and those that waited, the rounds left out before it.
std::optional<ProbeDefer> deferOfBlocks(const std::vector<ProbeBlock>& blocks)
{
    std::optional<ProbeDefer> defer;
    std::set<int> withoutLine;
    for (const ProbeBlock& b : blocks) {
        if (b.style != "defer")
            continue;
        if (!defer) {
            defer.emplace();
            defer->fromBlocks = true;
        }
        if (b.deferredSite)
            defer->site = *b.deferredSite;
        else if (b.round)
            withoutLine.insert(*b.round);
        defer->late += b.deferred;
        defer->waited += b.deferredWaited;
    }
    if (defer) {
        defer->calls = defer->late + defer->waited;
        defer->roundsWithoutLine = int(withoutLine.size());
    }
    return defer;
}

} // namespace

ProbeAb abOfBlocks(const std::vector<ProbeBlock>& blocks, const ProbeLiveAb& live, const std::string& abOption)
{
    ProbeAb ab;
    if (std::none_of(blocks.begin(), blocks.end(), [](const ProbeBlock& b) { return b.round.has_value(); }))
        return ab;
    ab.ab = abTreatment(blocks, abOption);
    if (ab.ab == "defer")
        ab.defer = deferOfBlocks(blocks);
    ab.blockSteps = blocks.back().steps;
    ab.rounds = live.rounds;
    const auto estimate = [](const std::optional<Interval>& i) {
        return i
            ? std::optional<ProbeEstimate>(ProbeEstimate { i->estimate, i->low, i->high, 0, i->low > 0 || i->high < 0 })
            : std::nullopt;
    };
    ab.item = estimate(live.item);
    ab.control = estimate(live.control);
    if (!ab.item)
        ab.reason = std::to_string(live.rounds) + " complete round(s) in blocks.jsonl; at least 2 are needed";
    if (ab.ab == "defer" && (!ab.defer || ab.defer->site.empty()))
        ab.reason = "no line deferred yet (--ab defer picks one at a block's start)";
    std::vector<double> none;
    for (const ProbeBlock& b : blocks) {
        if (b.style == "none" && b.msPerStep > 0)
            none.push_back(b.msPerStep);
    }
    if (none.size() >= 4) {
        const std::size_t half = none.size() / 2;
        const double first = geometricMean({ none.begin(), none.begin() + std::ptrdiff_t(half) });
        const double second = geometricMean({ none.begin() + std::ptrdiff_t(half), none.end() });
        ab.driftPct = 100.0 * (second / first - 1.0);
        double widest = 0;
        for (const std::optional<ProbeEstimate>& e : { ab.item, ab.control }) {
            if (e)
                widest = std::max(widest, e->ciHigh - e->ciLow);
        }
        ab.driftFlagged = widest > 0 && std::abs(ab.driftPct) > widest;
    }
    return ab;
}

} // namespace synctax
