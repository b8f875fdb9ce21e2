#include "core/statistics/numpysort.h"

#include <cstdint>
#include <utility>

namespace synctax {

std::vector<std::size_t> numpyQuicksortOrder(const std::vector<double>& keys)
{
    // A transcription of numpy/core/src/npysort/quicksort.cpp (aquicksort_, aheapsort_), numpy 1.24.
    const std::ptrdiff_t num = std::ptrdiff_t(keys.size());
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    if (num < 2)
        return order;
    const auto less = [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; };
    const auto heapsort = [&](std::size_t* tosort, std::ptrdiff_t n) {
        // numpy's heap is 1-based: a(k) is tosort[k - 1].
        const auto a = [&](std::ptrdiff_t k) -> std::size_t& { return tosort[k - 1]; };
        const auto siftDown = [&](std::ptrdiff_t i, std::ptrdiff_t size, std::size_t tmp) {
            for (std::ptrdiff_t j = i << 1; j <= size;) {
                if (j < size && less(a(j), a(j + 1)))
                    ++j;
                if (!less(tmp, a(j)))
                    break;
                a(i) = a(j);
                i = j;
                j += j;
            }
            a(i) = tmp;
        };
        for (std::ptrdiff_t l = n >> 1; l > 0; --l)
            siftDown(l, n, a(l));
        for (; n > 1;) {
            const std::size_t tmp = a(n);
            a(n) = a(1);
            --n;
            siftDown(1, n, tmp);
        }
    };
    constexpr std::ptrdiff_t smallQuicksort = 15;
    std::size_t* pl = order.data();
    std::size_t* pr = order.data() + num - 1;
    std::vector<std::size_t*> stack;
    std::vector<int> depths;
    int cdepth = 0;
    for (std::uint64_t u = std::uint64_t(num); u >>= 1;)
        ++cdepth;
    cdepth *= 2;
    for (;;) {
        if (cdepth < 0) {
            heapsort(pl, pr - pl + 1);
        } else {
            while (pr - pl > smallQuicksort) {
                std::size_t* pm = pl + ((pr - pl) >> 1);
                if (less(*pm, *pl))
                    std::swap(*pm, *pl);
                if (less(*pr, *pm))
                    std::swap(*pr, *pm);
                if (less(*pm, *pl))
                    std::swap(*pm, *pl);
                const std::size_t vp = *pm;
                std::size_t* pi = pl;
                std::size_t* pj = pr - 1;
                std::swap(*pm, *pj);
                for (;;) {
                    do
                        ++pi;
                    while (less(*pi, vp));
                    do
                        --pj;
                    while (less(vp, *pj));
                    if (pi >= pj)
                        break;
                    std::swap(*pi, *pj);
                }
                std::swap(*pi, *(pr - 1));
                // The larger partition waits on the stack.
                if (pi - pl < pr - pi) {
                    stack.push_back(pi + 1);
                    stack.push_back(pr);
                    pr = pi - 1;
                } else {
                    stack.push_back(pl);
                    stack.push_back(pi - 1);
                    pl = pi + 1;
                }
                depths.push_back(--cdepth);
            }
            for (std::size_t* pi = pl + 1; pi <= pr; ++pi) {
                const std::size_t vi = *pi;
                std::size_t* pj = pi;
                std::size_t* pk = pi - 1;
                while (pj > pl && less(vi, *pk))
                    *pj-- = *pk--;
                *pj = vi;
            }
        }
        if (stack.empty())
            break;
        pr = stack.back();
        stack.pop_back();
        pl = stack.back();
        stack.pop_back();
        cdepth = depths.back();
        depths.pop_back();
    }
    return order;
}

} // namespace synctax
