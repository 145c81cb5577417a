"""Train the worked example: MaskablePPO on the Cabin, then keep only what playing needs.

    pip install 'decklab[sb3]'          # Stable-Baselines3, sb3-contrib, torch
    python examples/policies/cabin_ppo/train.py --steps 60000

Training uses Stable-Baselines3 through decklab's Gymnasium environment
(``decklab/cabin-v0``, the mask outside the observation, MaskablePPO asking the env's
``action_masks()``). What ships is the actor network's weights as a small NumPy file
(``cabin_ppo.npz``): playing it needs neither torch nor SB3, so the policy runs in the
arena's worker processes and at a server's bot seat with a plain install.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import gymnasium
import numpy as np

from decklab.interop.gymnasium import register_all

HERE = Path(__file__).resolve().parent


def export(model: object, path: Path) -> None:
    """The actor's layers (``mlp_extractor.policy_net`` then ``action_net``) as arrays."""
    policy = model.policy  # type: ignore[attr-defined]
    layers = [m for m in policy.mlp_extractor.policy_net if hasattr(m, "weight")]
    layers.append(policy.action_net)
    arrays = {}
    for i, layer in enumerate(layers):
        arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().astype(np.float32)
        arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    np.savez_compressed(path, **arrays)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30_000, help="environment steps")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "cabin_ppo.npz")
    args = parser.parse_args()
    import torch
    from sb3_contrib import MaskablePPO  # the sb3 extra: only training needs it

    torch.set_num_threads(1)  # a small network: threads cost more than they give

    register_all()
    env = gymnasium.make("decklab/cabin-v0", mask_in_observation=False)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=1024,
        batch_size=256,
        learning_rate=3e-4,
        gamma=1.0,
        policy_kwargs={"net_arch": [64, 64]},
        seed=args.seed,
        verbose=0,
    )
    started = time.perf_counter()
    model.learn(args.steps, progress_bar=False)
    print(f"trained {args.steps} steps in {time.perf_counter() - started:.0f} s")
    export(model, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
