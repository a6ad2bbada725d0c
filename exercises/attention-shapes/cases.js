// Hidden cases of attention-shapes. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

const nested = (rng, shape) => (shape.length === 1
  ? Array.from({ length: shape[0] }, () => Math.round(rng.normal() * 1e3) / 1e3)
  : Array.from({ length: shape[0] }, () => nested(rng, shape.slice(1))));

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 9; i++) {
    const B = rng.int(1, 3);
    const Nh = rng.int(2, 4);
    const Dh = rng.pick([2, 3, 4]);
    const S = rng.int(2, 5);
    const label = `B=${B}, Nh=${Nh}, S=${S}, Dh=${Dh}`;
    if (i % 3 === 0) cases.push({ fn: 'splitHeads', args: [tensorArg(nested(rng, [B, S, Nh * Dh])), Nh], label });
    if (i % 3 === 1) cases.push({ fn: 'mergeHeads', args: [tensorArg(nested(rng, [B, Nh, S, Dh]))], label });
    if (i % 3 === 2) {
      // S, Sk and Dh all differ, so a scale by √S or √Sk cannot pass for √Dh.
      const Sq = S === Dh ? S + 1 : S;
      let Sk = Sq + rng.int(1, 3);
      if (Sk === Dh) Sk++;
      cases.push({ fn: 'headScores', args: [tensorArg(nested(rng, [B, Nh, Sq, Dh])), tensorArg(nested(rng, [B, Nh, Sk, Dh]))],
        label: `B=${B}, Nh=${Nh}, S=${Sq}, Dh=${Dh}, Sk=${Sk}` });
    }
  }
  return cases;
}

// ---- recognised mistakes ----
export const mistakes = {
  splitHeads: [
    { hint: { en: 'a reshape straight to [B, Nh, S, Dh] mixes tokens and heads: reshape to [B, S, Nh, Dh] first, then transpose(1, 2)',
              zh: '直接 reshape 成 [B, Nh, S, Dh] 会把 token 和头混在一起：先 reshape 成 [B, S, Nh, Dh]，再 transpose(1, 2)' },
      fn: (x, heads) => { const [B, S, H] = x.shape; return x.reshape([B, heads, S, H / heads]); } },
    { hint: { en: 'the head is the slower index of the hidden axis: reshape H as [Nh, Dh], not [Dh, Nh]',
              zh: '在隐藏维上，头是变化较慢的那个索引：应把 H 拆成 [Nh, Dh]，而不是 [Dh, Nh]' },
      fn: (x, heads) => { const [B, S, H] = x.shape; return x.reshape([B, S, H / heads, heads]).permute(0, 3, 1, 2); } },
  ],
  mergeHeads: [
    { hint: { en: 'a reshape straight to [B, S, Nh·Dh] mixes tokens and heads: transpose(1, 2) back to [B, S, Nh, Dh] first',
              zh: '直接 reshape 成 [B, S, Nh·Dh] 会把 token 和头混在一起：先 transpose(1, 2) 回到 [B, S, Nh, Dh]' },
      fn: (x) => { const [B, Nh, S, Dh] = x.shape; return x.reshape([B, S, Nh * Dh]); } },
    { hint: { en: 'the heads are interleaved: channel h·Dh + d holds head h, so move the head axis next to S, not after Dh',
              zh: '各头被交错排列了：通道 h·Dh + d 属于第 h 个头，所以头这一维要挪到 S 旁边，而不是放在 Dh 之后' },
      fn: (x) => { const [B, Nh, S, Dh] = x.shape; return x.permute(0, 2, 3, 1).reshape([B, S, Nh * Dh]); } },
  ],
  headScores: [
    { hint: { en: 'the scores are not scaled: divide by √Dh',
              zh: '注意力分数没有缩放：要除以 √Dh' },
      fn: (Q, K) => Q.matmul(K.transpose(-2, -1)) },
    { hint: { en: 'this divides by √(Nh·Dh), the model width; each head is scaled by its own width √Dh',
              zh: '这里除以的是模型宽度 √(Nh·Dh)；每个头按自己的宽度 √Dh 缩放' },
      fn: (Q, K) => Q.matmul(K.transpose(-2, -1)).div(Math.sqrt(Q.shape[1] * Q.shape[3])) },
    { hint: { en: 'this divides by √S, the number of queries; the scale is √Dh, the length of each head\'s vectors (the last axis)',
              zh: '这里除以的是 √S（查询的个数）；缩放因子是 √Dh，即每个头的向量长度（最后一维）' },
      fn: (Q, K) => Q.matmul(K.transpose(-2, -1)).div(Math.sqrt(Q.shape[2])) },
    { hint: { en: 'this divides by √Sk, the number of keys; the scale is √Dh, the length of each head\'s vectors (the last axis)',
              zh: '这里除以的是 √Sk（键的个数）；缩放因子是 √Dh，即每个头的向量长度（最后一维）' },
      fn: (Q, K) => Q.matmul(K.transpose(-2, -1)).div(Math.sqrt(K.shape[2])) },
    { hint: { en: 'this divides by Dh; divide by √Dh',
              zh: '这里除以了 Dh；应除以 √Dh' },
      fn: (Q, K) => Q.matmul(K.transpose(-2, -1)).div(Q.shape[3]) },
  ],
};
