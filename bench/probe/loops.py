"""Plain PyTorch training loops for checking the probe: SyncTax's three models as Python modules
(mirrors of models/*.cpp: TinyMLP, SmallResNet, ResNet50) and two of torchvision's, trained with
SGD (momentum 0.9, as core/engine/training) on synthetic data made once on the device, with a
spin of host work per step (the C++ runner's host work). The train_<model>.py scripts run one of
them as a user's script would; handpaired.py and probe_cost.py import the same loop."""
import argparse
import json
import math
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyMLP(nn.Module):
    def __init__(self, inputs=256, width=512, classes=10):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(inputs, width), nn.Linear(width, width)
        self.fc3, self.fc4 = nn.Linear(width, width), nn.Linear(width, classes)

    def forward(self, x):
        return self.fc4(F.relu(self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))))


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout)
        self.c2, self.b2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        identity = x if self.down is None else self.down(x)
        y = self.b2(self.c2(F.relu(self.b1(self.c1(x)))))
        return F.relu(y + identity)


class SmallResNet(nn.Module):
    def __init__(self, width=64, classes=10, blocks_per_stage=2):
        super().__init__()
        self.stem, self.bn = nn.Conv2d(3, width, 3, 1, 1, bias=False), nn.BatchNorm2d(width)
        blocks, cin = [], width
        for stage in range(4):
            planes = width << stage
            for b in range(blocks_per_stage):
                blocks.append(BasicBlock(cin, planes, 2 if stage > 0 and b == 0 else 1))
                cin = planes
        self.stages, self.fc = nn.Sequential(*blocks), nn.Linear(cin, classes)

    def forward(self, x):
        x = self.stages(F.relu(self.bn(self.stem(x))))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class Bottleneck(nn.Module):
    def __init__(self, cin, planes, stride):
        super().__init__()
        cout = planes * 4
        self.c1, self.b1 = nn.Conv2d(cin, planes, 1, bias=False), nn.BatchNorm2d(planes)
        self.c2, self.b2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False), nn.BatchNorm2d(planes)
        self.c3, self.b3 = nn.Conv2d(planes, cout, 1, bias=False), nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        identity = x if self.down is None else self.down(x)
        y = F.relu(self.b1(self.c1(x)))
        y = F.relu(self.b2(self.c2(y)))
        return F.relu(self.b3(self.c3(y)) + identity)


class ResNet50(nn.Module):
    def __init__(self, width=64, classes=1000):
        super().__init__()
        self.stem, self.bn = nn.Conv2d(3, width, 7, 2, 3, bias=False), nn.BatchNorm2d(width)
        blocks, cin = [], width
        for stage, count in enumerate((3, 4, 6, 3)):
            planes = width << stage
            for b in range(count):
                blocks.append(Bottleneck(cin, planes, 2 if stage > 0 and b == 0 else 1))
                cin = planes * 4
        self.stages, self.fc = nn.Sequential(*blocks), nn.Linear(cin, classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.stem(x))), 3, 2, 1)
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(self.stages(x), 1), 1))


class Transformer(nn.Module):
    """A small encoder classifying token sequences: many small launches a step."""

    def __init__(self, vocab=1000, width=256, layers=4, classes=10):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        layer = nn.TransformerEncoderLayer(width, nhead=4, dim_feedforward=4 * width, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.head = nn.Linear(width, classes)

    def forward(self, tokens):
        return self.head(self.encoder(self.embed(tokens)).mean(dim=1))


def _torchvision(name, classes):
    import torchvision  # only these two models need it
    return getattr(torchvision.models, name)(weights=None, num_classes=classes)


# name: (make(classes), sample shape of one input (side = image side), batch, classes, side)
MODELS = {
    "tiny_mlp": (lambda c: TinyMLP(classes=c), lambda side: (256,), 256, 10, None),
    "small_resnet": (lambda c: SmallResNet(classes=c), lambda side: (3, side, side), 128, 10, 32),
    "resnet50": (lambda c: ResNet50(classes=c), lambda side: (3, side, side), 64, 1000, 224),
    "resnet34": (lambda c: _torchvision("resnet34", c), lambda side: (3, side, side), 64, 1000, 224),
    "mobilenet_v2": (lambda c: _torchvision("mobilenet_v2", c), lambda side: (3, side, side), 96, 1000, 160),
    # side: the sequence's length; its inputs are token ids
    "transformer": (lambda c: Transformer(classes=c), lambda side: (side,), 32, 10, 128),
}
TOKENS = {"transformer": 1000}  # models whose inputs are token ids below this
# What a CPU check runs: the same code, a few samples of a small size.
CPU_BATCH, CPU_SIDE = 4, 32


def spin(ms):
    """Host work the GPU's queue can hide (data loading, augmentation, Python logic): a busy wait,
    as the C++ runner's, checking the clock every few microseconds only so that a trace with
    stacks stays small."""
    if ms <= 0:
        return
    end = time.perf_counter() + ms / 1000.0
    while time.perf_counter() < end:
        for _ in range(200):
            pass


class Loop:
    """One model, its optimizer and a batch on the device; step() is one training step."""

    def __init__(self, model, device, batch=None, side=None, host_work_ms=0.0):
        make, shape, default_batch, classes, default_side = MODELS[model]
        cpu = torch.device(device).type == "cpu"
        batch = batch or (CPU_BATCH if cpu else default_batch)
        side = side or (CPU_SIDE if cpu else default_side)
        self.model, self.device, self.batch, self.side = model, device, batch, side
        self.net = make(classes).to(device)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.01, momentum=0.9)
        if model in TOKENS:
            self.x = torch.randint(0, TOKENS[model], (batch,) + shape(side), device=device)
        else:
            self.x = torch.randn((batch,) + shape(side), device=device)
        self.y = torch.randint(0, classes, (batch,), device=device)
        self.host_work_ms = host_work_ms

    def step(self, item=False):
        spin(self.host_work_ms)
        self.opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(self.net(self.x), self.y)
        loss.backward()
        self.opt.step()
        if item:
            loss.item()
        return loss


def default_device():
    return "cuda" if torch.cuda.is_available() else "cpu"


def synchronize(device):
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize()


def main(model):
    """A train_<model>.py script: the loop as a user runs it. Its own clock: the steps from
    --clock-from of the run to its end, a synchronize at each end, printed last as one JSON line
    (`{"loop": ...}`) for the benchmarks that run it in separate processes. With --paired-seconds
    it measures `loss.item()` itself instead, plainly: see paired_main."""
    p = argparse.ArgumentParser(description=f"Train {model} on synthetic data (a loop for checking the probe).")
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--host-work-ms", type=float, default=0.0, help="host work per step (a spin)")
    p.add_argument("--device", default=default_device())
    p.add_argument("--batch", type=int, help="default: the model's (4 on the CPU)")
    p.add_argument("--side", type=int, help="image side or sequence length (default: the model's; 32 on the CPU)")
    p.add_argument("--log-every", type=int, default=0, help="loss.item() every N steps (0: never)")
    p.add_argument("--clock-from", type=float, default=0.5, metavar="F",
                   help="the script's clock times the steps from this fraction of the run (default 0.5)")
    p.add_argument("--paired-seconds", type=float, default=0.0, metavar="S",
                   help="measure loss.item() plainly for S seconds instead (paired blocks, no probe)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    torch.backends.cudnn.benchmark = True
    loop = Loop(model, args.device, args.batch, args.side, args.host_work_ms)
    if args.paired_seconds > 0:
        paired_main(loop, args)
        return
    start = time.perf_counter()
    clock_step = min(args.steps - 1, max(0, int(args.steps * args.clock_from)))
    t0 = start
    for step in range(args.steps):
        if step == clock_step:
            synchronize(args.device)
            t0 = time.perf_counter()
        loss = loop.step()
        if args.log_every and step % args.log_every == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
    synchronize(args.device)
    end = time.perf_counter()
    timed = args.steps - clock_step
    print(f"{model}: {args.steps} steps in {end - start:.1f} s, {(end - t0) * 1000 / timed:.3f} ms a step over the last "
          f"{timed} (batch {loop.batch}, host work {args.host_work_ms} ms, {args.device})", flush=True)
    print(json.dumps({"loop": model, "steps": args.steps, "clock_step": clock_step, "timed_steps": timed,
                      "ms_per_step": (end - t0) * 1000 / timed,
                      "seconds": end - start, "host_work_ms": args.host_work_ms}), flush=True)


def block_steps_for(step_ms, least=20, block_ms=100.0):
    """As the probe sizes a block: at least `least` steps, and as many as take block_ms."""
    return max(least, math.ceil(block_ms / max(step_ms, 1e-3)))


def paired_main(loop, args):
    """The loop's `loss.item()` tax measured plainly, in this process alone: warm-up, then rounds of
    three blocks (none, none_aa, item) in a seeded random order, each from an idle GPU to the GPU
    done, sized as the probe sizes its blocks; then the GPU's time a step (CUDA events over a block)
    and the host's own time a step (a step dispatched onto an idle GPU, where no launch waits).
    Prints one JSON line with every round; the statistics are the reader's."""
    device = args.device
    for _ in range(30):
        loop.step()
    synchronize(device)
    t0 = time.perf_counter()
    for _ in range(20):
        loop.step()
    synchronize(device)
    steps = block_steps_for((time.perf_counter() - t0) * 1000 / 20)

    def block(item):
        synchronize(device)
        b0 = time.perf_counter_ns()
        for _ in range(steps):
            loop.step(item=item)
        synchronize(device)
        return (time.perf_counter_ns() - b0) * 1e-6 / steps

    rng = random.Random(args.seed)
    rounds, orders = [], []
    end = time.perf_counter() + args.paired_seconds
    while time.perf_counter() < end or len(rounds) < 3:
        order = rng.sample(["none", "none_aa", "item"], 3)
        orders.append(order)
        rounds.append({name: block(name == "item") for name in order})
    gpu_ms = host_ms = None
    if torch.device(device).type == "cuda":
        start_event, end_event = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        synchronize(device)
        start_event.record()
        for _ in range(steps):
            loop.step()
        end_event.record()
        synchronize(device)
        gpu_ms = start_event.elapsed_time(end_event) / steps
    own = []
    for _ in range(10):
        synchronize(device)
        h0 = time.perf_counter_ns()
        loop.step()
        own.append((time.perf_counter_ns() - h0) * 1e-6 - loop.host_work_ms)
    synchronize(device)
    host_ms = sorted(own)[len(own) // 2]
    print(json.dumps({"loop": loop.model, "paired": True, "block_steps": steps, "rounds": rounds, "orders": orders,
                      "gpu_ms": gpu_ms, "host_own_ms": host_ms, "host_work_ms": loop.host_work_ms,
                      "batch": loop.batch, "side": loop.side}), flush=True)
