// tp.synth: synthetic data for the chapter's experiments, made in the core (cpp/include/tensorpad/nn.hpp).
//
//   tp.synth.activations({tokens = 512, dim = 1024, outliers = 6, outlierScale = 50, seed = 0})
import { checkInt, checkNumber, options } from './checks.js';

export function synth(rt) {
  const { core, wrap } = rt;
  return {
    /**
     * LLM-like activations (tokens, dim) with a few large outlier channels — synthetic, not from a model.
     * Ordinary channel c: s_c·z with z ~ N(0,1) and s_c = exp(0.3·g_c); outlier channel k (k = 0..outliers-1,
     * chosen by seed): ±m_k·(1 + 0.1 z) with m_k = outlierScale / (1 + 0.5 k), a fixed sign per channel.
     */
    activations(opts) {
      const op = 'synth.activations';
      const o = options(op, opts, ['tokens', 'dim', 'outliers', 'outlierScale', 'seed']);
      const { tokens = 512, dim = 1024, outliers = 6, outlierScale = 50, seed = 0 } = o;
      checkInt(op, 'tokens', tokens, { min: 1 });
      checkInt(op, 'dim', dim, { min: 1 });
      checkInt(op, 'outliers', outliers, { min: 0 });
      checkNumber(op, 'outlierScale', outlierScale);
      checkInt(op, 'seed', seed, { min: 0, max: Number.MAX_SAFE_INTEGER });
      return wrap(core.synthActivations(tokens, dim, outliers, outlierScale, seed), op);
    },
  };
}
