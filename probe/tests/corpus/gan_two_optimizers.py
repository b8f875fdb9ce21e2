"""A GAN's step: the discriminator's optimizer, then the generator's; its loss read after its own step."""
import torch
from common import DEVICE

torch.manual_seed(0)
disc, gen = torch.nn.Linear(8, 1).to(DEVICE), torch.nn.Linear(4, 8).to(DEVICE)
opt_d = torch.optim.SGD(disc.parameters(), lr=0.01)
opt_g = torch.optim.SGD(gen.parameters(), lr=0.01)
real = torch.randn(16, 8, device=DEVICE)
for step in range(40):
    fake = gen(torch.randn(16, 4, device=DEVICE))
    opt_d.zero_grad()
    loss_d = disc(fake.detach()).mean() - disc(real).mean()
    loss_d.backward()
    opt_d.step()
    opt_g.zero_grad()
    loss_g = -disc(fake).mean()
    loss_g.backward()
    opt_g.step()
    g = loss_g.item()  # site
