#include "core/engine/distributed/gradientbuckets.h"

#include "core/engine/distributed/collectives.h"
#include "core/engine/gpu/hostclock.h"

#include <torch/torch.h>

namespace synctax {

GradientBuckets::GradientBuckets(std::vector<torch::Tensor> parameters, Collectives& collectives, int64_t capBytes)
    : m_parameters(std::move(parameters))
    , m_collectives(collectives)
    , m_bucketOf(m_parameters.size())
    , m_offsetOf(m_parameters.size())
    , m_arrived(m_parameters.size(), false)
{
    // Reverse order; a new bucket once the next parameter would pass the cap (a parameter larger
    // than the cap gets a bucket of its own).
    std::vector<std::vector<size_t>> groups;
    int64_t bytes = 0;
    for (size_t k = m_parameters.size(); k-- > 0;) {
        const torch::Tensor& p = m_parameters[k];
        const int64_t size = p.numel() * int64_t(p.element_size());
        if (groups.empty() || (bytes > 0 && bytes + size > capBytes)) {
            groups.emplace_back();
            bytes = 0;
        }
        groups.back().push_back(k);
        bytes += size;
    }
    for (const auto& group : groups) {
        Bucket bucket;
        int64_t numel = 0;
        for (size_t k : group) {
            m_bucketOf[k] = m_buckets.size();
            m_offsetOf[k] = numel;
            bucket.members.push_back(k);
            numel += m_parameters[k].numel();
        }
        bucket.flat = torch::zeros({ numel }, m_parameters[group.front()].options());
        m_buckets.push_back(std::move(bucket));
    }
    for (size_t k = 0; k < m_parameters.size(); ++k)
        m_hooks.push_back(
            m_parameters[k].register_hook([this, k](const torch::Tensor& grad) { gradientReady(k, grad); }));
}

GradientBuckets::~GradientBuckets()
{
    for (size_t k = 0; k < m_parameters.size(); ++k)
        m_parameters[k].remove_hook(m_hooks[k]);
}

void GradientBuckets::gradientReady(size_t parameter, const torch::Tensor& grad)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    Bucket& bucket = m_buckets[m_bucketOf[parameter]];
    bucket.flat.narrow(0, m_offsetOf[parameter], grad.numel()).copy_(grad.reshape({ -1 }));
    if (!m_arrived[parameter]) {
        m_arrived[parameter] = true;
        ++bucket.ready;
    }
    startReadyBuckets();
}

void GradientBuckets::startReadyBuckets()
{
    while (
        m_nextToStart < m_buckets.size() && m_buckets[m_nextToStart].ready == m_buckets[m_nextToStart].members.size()) {
        Bucket& bucket = m_buckets[m_nextToStart++];
        bucket.work = m_collectives.allReduceSum(bucket.flat);
    }
}

double GradientBuckets::finish()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        for (size_t b = m_nextToStart; b < m_buckets.size(); ++b) {
            Bucket& bucket = m_buckets[b];
            for (size_t i = 0; i < bucket.members.size(); ++i) {
                const size_t k = bucket.members[i];
                if (!m_arrived[k]) {
                    bucket.flat.narrow(0, m_offsetOf[k], m_parameters[k].numel()).zero_();
                    m_arrived[k] = true;
                    ++bucket.ready;
                }
            }
        }
        startReadyBuckets();
    }
    const double ranks = double(m_collectives.size());
    int64_t waitedNs = 0;
    torch::NoGradGuard noGrad;
    for (Bucket& bucket : m_buckets) {
        const int64_t start = steadyNowNs();
        bucket.work->wait();
        waitedNs += steadyNowNs() - start;
        bucket.work.reset();
        bucket.flat.div_(ranks);
        for (size_t i = 0; i < bucket.members.size(); ++i) {
            const size_t k = bucket.members[i];
            torch::Tensor& p = m_parameters[k];
            const torch::Tensor average = bucket.flat.narrow(0, m_offsetOf[k], p.numel()).view(p.sizes());
            if (p.grad().defined())
                p.mutable_grad().copy_(average);
            else
                p.mutable_grad() = average.clone();
        }
        bucket.ready = 0;
    }
    std::fill(m_arrived.begin(), m_arrived.end(), false);
    m_nextToStart = 0;
    return double(waitedNs) * 1e-6;
}

} // namespace synctax
