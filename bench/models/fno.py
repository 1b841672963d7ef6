"""A Fourier neural operator train step (flax.nnx + optax.adam), data parallel on (8,).

The FNO of Li et al. (2021) on a 1-D field: a lifting nnx.Linear to `WIDTH` channels,
`LAYERS` Fourier layers and a two-layer projection. A Fourier layer adds a pointwise
nnx.Linear of its input to a spectral convolution: rfft along the grid, the lowest
`MODES` frequencies mixed across channels by complex weights (kept as two real
nnx.Params, as optax expects), the others zeroed, irfft back; then GELU. The batch is
split on "data"; the parameters are replicated, so the step's only cross-device work is
the data-parallel gradient sum. The ffts' batch dim is sharded: each device can transform
its own fields.
"""
from __future__ import annotations

from common import ModelProgram  # bench/models/ is on sys.path (run.py puts it there)

BATCH, GRID, WIDTH, MODES, LAYERS = 64, 256, 32, 16, 4


def _fno_class():
    import jax
    import jax.numpy as jnp
    from flax import nnx

    class SpectralConv(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            scale = 1.0 / (WIDTH * WIDTH)
            shape = (MODES, WIDTH, WIDTH)
            self.re = nnx.Param(scale * jax.random.uniform(rngs.params(), shape))
            self.im = nnx.Param(scale * jax.random.uniform(rngs.params(), shape))

        def __call__(self, x):  # x: [batch, grid, width]
            f = jnp.fft.rfft(x, axis=1)[:, :MODES, :]
            w = self.re.value + 1j * self.im.value
            g = jnp.einsum("bmi,mio->bmo", f, w)
            g = jnp.pad(g, ((0, 0), (0, GRID // 2 + 1 - MODES), (0, 0)))
            return jnp.fft.irfft(g, n=GRID, axis=1)

    class FNO(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            self.lift = nnx.Linear(2, WIDTH, rngs=rngs)
            self.spectral = nnx.List([SpectralConv(rngs) for _ in range(LAYERS)])
            self.pointwise = nnx.List([nnx.Linear(WIDTH, WIDTH, rngs=rngs)
                                       for _ in range(LAYERS)])
            self.proj1 = nnx.Linear(WIDTH, 128, rngs=rngs)
            self.proj2 = nnx.Linear(128, 1, rngs=rngs)

        def __call__(self, u):  # u: [batch, grid] -> [batch, grid]
            grid = jnp.broadcast_to(jnp.linspace(0.0, 1.0, GRID), u.shape)
            x = self.lift(jnp.stack([u, grid], axis=-1))
            for k, (spectral, pointwise) in enumerate(zip(self.spectral, self.pointwise)):
                x = spectral(x) + pointwise(x)
                if k < LAYERS - 1:
                    x = jax.nn.gelu(x)
            return self.proj2(jax.nn.gelu(self.proj1(x)))[..., 0]

    return FNO


def build_fno_dp(mesh):
    import jax
    import numpy as np
    import optax
    from flax import nnx
    from jax.sharding import PartitionSpec as P

    from train import build_train

    model = _fno_class()(nnx.Rngs(0))
    # A smooth field and a target that depends on it nonlocally (a shifted, squared copy).
    rng = np.random.default_rng(0)
    x = np.linspace(0.0, 2.0 * np.pi, GRID, endpoint=False)
    coeffs = rng.standard_normal((BATCH, 4)).astype(np.float32)
    u = sum(coeffs[:, k:k + 1] * np.sin((k + 1) * x) for k in range(4)).astype(np.float32)
    target = (np.roll(u, GRID // 8, axis=1) ** 2).astype(np.float32)

    def loss(model, batch):
        return ((model(batch["u"]) - batch["target"]) ** 2).mean()

    def replicated(state):
        return jax.tree.map(lambda _: P(), state)

    return build_train(model, mesh, replicated, loss, {"u": u, "target": target},
                       {"u": P("data", None), "target": P("data", None)},
                       tx=optax.adam(1e-3))


PROGRAMS = [
    ModelProgram(
        name="fno_dp_mesh8", mesh_shape=(8,), axis_names=("data",),
        build=build_fno_dp, donate=(0, 1),
        description=f"Fourier neural operator train step (grid {GRID}, width {WIDTH}, "
                    f"{MODES} modes, {LAYERS} layers, batch {BATCH}), DP on data"),
]
