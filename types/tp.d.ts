// Generated from wasm/js/api-doc.json by wasm/js/api-types.mjs: edit those, not this file.
export type Shape = number[];
export type Nested = number | boolean | Tensor | readonly Nested[];
export type TensorLike = Nested | ArrayLike<number>;
export type NestedNumbers = number | NestedNumbers[];
export type CloseOptions = { rtol?: number; atol?: number; equalNan?: boolean };
export type RandomOptions = { seed?: number };
export type TensorSource = Blob | ArrayBuffer | ArrayBufferView | string | URL;
export type TensorFile = { format: "safetensors" | "npy"; tensors: { name: string; dtype: string; shape: number[] }[]; metadata: Record<string, unknown>; size: number; get(name: string, opts?: { dtype?: DTypeName }): Promise<Tensor>; close(): Promise<void> };
export type Memory = { tensors: number; quantized: number; models: number; bytes: number; scratch: number };
export type JudgeResults = { version: number; status: 'pass' | 'fail' | 'error'; message: string | null; tests: { name: string; status: 'pass' | 'fail' | 'error'; message: string | null; output: string | null; test_code: string }[]; exercise: string; seed: number; passed: number; failed: number; error_kind?: string };
export type DType = 'float32' | 'float64' | 'float16' | 'bfloat16' | 'int32' | 'int64' | 'uint8' | 'int8' | 'int16' | 'bool';
export type DTypeName = DType | 'float' | 'double' | 'half' | 'int' | 'long' | 'short';
export type TypedData = Float32Array | Float64Array | Int32Array | Int16Array | Int8Array | Uint8Array;
export type NestedValues = number | boolean | NestedValues[];
export type ModelSource = string | ArrayLike<Blob>;
export type ModelConfig = { architecture: string; vocabSize: number; hiddenSize: number; intermediateSize: number; numLayers: number; numHeads: number; numKvHeads: number; headDim: number; ropeTheta: number; ropeType: string; rmsNormEps: number; tiedEmbeddings: boolean; eosTokenIds: number[]; raw: Record<string, unknown> };
export type LoadProgress = { bytes: number; totalBytes: number; tensors: number; totalTensors: number; name: string };
export type ForwardProgress = { step: number; steps: number; layer: number; layers: number };
export type ForwardOptions = { capture?: string | string[]; logits?: 'last' | 'all' | false; onProgress?: (p: ForwardProgress) => void; signal?: AbortSignal; profile?: boolean };
export type ForwardResult = { logits: Tensor | null; captures: Record<string, Tensor>; profile?: { op: string; calls: number; ms: number; helperMs: number }[] };
export type ModelTokenizer = { available: boolean; encode(text: string): number[]; decode(ids: ArrayLike<number>): string };

/** The one error type of the API: the message names the operation ("matmul: shapes ..."), as does .op. */
export declare class TensorpadError extends Error {
  readonly op: string | null;
  constructor(message: string, opts?: { op?: string });
}

export declare class Tensor {
  private constructor();
  /** The sizes of the dims (a copy). @example tp.zeros([2, 3]).shape  // [2, 3] */
  readonly shape: number[];
  /** The element type, by torch's name ("float32", "int64", "bool", ...). @example tp.tensor([1, 2], { dtype: 'int32' }).dtype  // 'int32' */
  readonly dtype: DType;
  /** The number of dims. @example tp.zeros([2, 3]).ndim  // 2 */
  readonly ndim: number;
  /** The number of elements. @example tp.zeros([2, 3]).numel  // 6 */
  readonly numel: number;
  /** Whether dispose() has freed it. @example const t = tp.ones(2); t.dispose(); t.isDisposed  // true */
  readonly isDisposed: boolean;
  /** All dims reversed (a matrix transposed); a copy for fewer than 2 dims. @example tp.eye(2, 3).T.shape  // [3, 2] */
  readonly T: Tensor;
  /** Frees the tensor now; using it afterwards is an error. @example const t = tp.ones(2); t.dispose(); */
  dispose(): void;
  /** The number of dims (as torch). @example tp.zeros([2, 3]).dim()  // 2 */
  dim(): number;
  /** The shape, or the size of one dim (negative counts from the end). @example tp.zeros([2, 3]).size(-1)  // 3 */
  size(): number[];
  size(dim: number): number;
  /** Elements to step per dim in the underlying storage. @example tp.zeros([2, 3]).stride()  // [3, 1] */
  stride(): number[];
  /** Whether the elements lie row-major without gaps. @example tp.zeros([2, 3]).T.isContiguous()  // false */
  isContiguous(): boolean;
  /** The elements in row-major order (a copy): float16/bfloat16 widened to a Float32Array, int64 to a Float64Array (exact within ±2^53), bool as a Uint8Array of 0/1. @example tp.arange(3).data()  // Float32Array [0, 1, 2] */
  data(): TypedData;
  /** The value of a one-element tensor (a boolean for a bool tensor). @example tp.tensor([[5]]).item()  // 5 */
  item(): number | boolean;
  /** The elements as nested arrays of numbers, or booleans for a bool tensor (a single value for a 0-d tensor), as torch's tolist(). @example tp.eye(2).toArray()  // [[1, 0], [0, 1]] */
  toArray(): NestedValues;
  /** Prints as torch does: tensor([...]). @example tp.tensor([1, 2.5]).toString()  // "tensor([1.0000, 2.5000])" */
  toString(): string;
  /** Elementwise a + b, broadcasting (other may be a number). @example tp.tensor([1, 2]).add(2) */
  add(other: TensorLike): Tensor;
  /** Elementwise a - b, broadcasting (other may be a number). @example tp.tensor([1, 2]).sub(2) */
  sub(other: TensorLike): Tensor;
  /** Elementwise a * b, broadcasting (other may be a number). @example tp.tensor([1, 2]).mul(2) */
  mul(other: TensorLike): Tensor;
  /** Elementwise a / b, broadcasting (other may be a number). @example tp.tensor([1, 2]).div(2) */
  div(other: TensorLike): Tensor;
  /** Elementwise a ** b, broadcasting (other may be a number). @example tp.tensor([1, 2]).pow(2) */
  pow(other: TensorLike): Tensor;
  /** Elementwise the larger of a and b, broadcasting (other may be a number). @example tp.tensor([1, 2]).maximum(2) */
  maximum(other: TensorLike): Tensor;
  /** Elementwise the smaller of a and b, broadcasting (other may be a number). @example tp.tensor([1, 2]).minimum(2) */
  minimum(other: TensorLike): Tensor;
  /** Elementwise -x. @example tp.tensor([-1, 4]).neg() */
  neg(): Tensor;
  /** Elementwise |x|. @example tp.tensor([-1, 4]).abs() */
  abs(): Tensor;
  /** Elementwise the square root. @example tp.tensor([-1, 4]).sqrt() */
  sqrt(): Tensor;
  /** Elementwise e^x. @example tp.tensor([-1, 4]).exp() */
  exp(): Tensor;
  /** Elementwise the natural log. @example tp.tensor([-1, 4]).log() */
  log(): Tensor;
  /** Elementwise x * x. @example tp.tensor([-1, 4]).square() */
  square(): Tensor;
  /** Elementwise rounded half to even. @example tp.tensor([-1, 4]).round() */
  round(): Tensor;
  /** Elementwise max(x, 0). @example tp.tensor([-1, 4]).relu() */
  relu(): Tensor;
  /** Elementwise -1, 0 or 1. @example tp.tensor([-1, 4]).sign() */
  sign(): Tensor;
  /** Elementwise sin x (radians). @example tp.tensor([0, Math.PI / 2]).sin() */
  sin(): Tensor;
  /** Elementwise cos x (radians). @example tp.tensor([0, Math.PI]).cos() */
  cos(): Tensor;
  /** Elementwise tan x (radians). @example tp.tensor([0, 1]).tan() */
  tan(): Tensor;
  /** Elementwise tanh x. @example tp.tensor([-1, 0, 1]).tanh() */
  tanh(): Tensor;
  /** Elementwise 1 / (1 + e^-x). @example tp.tensor([-2, 0, 2]).sigmoid() */
  sigmoid(): Tensor;
  /** Elementwise The error function. @example tp.tensor([0, 1]).erf() */
  erf(): Tensor;
  /** Elementwise e^x - 1, exact for tiny x. @example tp.tensor([1e-10]).expm1() */
  expm1(): Tensor;
  /** Elementwise log(1 + x), exact for tiny x. @example tp.tensor([1e-10]).log1p() */
  log1p(): Tensor;
  /** Elementwise 1 / √x. @example tp.tensor([4, 16]).rsqrt() */
  rsqrt(): Tensor;
  /** Elementwise 1 / x. @example tp.tensor([2, -4]).reciprocal() */
  reciprocal(): Tensor;
  /** Elementwise Rounded toward -inf. @example tp.tensor([-1.5, 1.5]).floor() */
  floor(): Tensor;
  /** Elementwise Rounded toward +inf. @example tp.tensor([-1.5, 1.5]).ceil() */
  ceil(): Tensor;
  /** Elementwise Rounded toward 0. @example tp.tensor([-1.5, 1.5]).trunc() */
  trunc(): Tensor;
  /** Each element kept within [min, max]; one bound may be null, not both; min > max gives max. @example tp.arange(5).clamp(1, 3) */
  clamp(min?: number | null, max?: number | null): Tensor;
  /** Swaps two dims (the last two by default): a view, no copy. @example tp.zeros([2, 3, 4]).transpose(0, 2).shape  // [4, 3, 2] */
  transpose(dim0?: number, dim1?: number): Tensor;
  /** The dims reordered: a view. @example tp.zeros([2, 3, 4]).permute(2, 0, 1).shape  // [4, 2, 3] */
  permute(dims: number[]): Tensor;
  permute(...dims: number[]): Tensor;
  /** The same elements in a new shape (one size may be -1); copies only if not contiguous. @example tp.arange(6).reshape(2, -1).shape  // [2, 3] */
  reshape(shape: Shape): Tensor;
  reshape(...shape: number[]): Tensor;
  /** Same as reshape. @example tp.arange(6).view([3, 2]).shape */
  view(shape: Shape): Tensor;
  view(...shape: number[]): Tensor;
  /** Dims startDim..endDim (all by default) merged into one. @example tp.zeros([2, 3, 4]).flatten(1).shape  // [2, 12] */
  flatten(startDim?: number, endDim?: number): Tensor;
  /** A new dim of size 1 at dim. @example tp.zeros([3]).unsqueeze(0).shape  // [1, 3] */
  unsqueeze(dim: number): Tensor;
  /** Size-1 dims removed: all of them, or those of dim that have size 1 (a view). @example tp.zeros([1, 3, 1]).squeeze().shape  // [3] */
  squeeze(dim?: number | number[]): Tensor;
  /** dim split into sizes (one may be -1). @example tp.zeros([6]).unflatten(0, [2, 3]).shape  // [2, 3] */
  unflatten(dim: number, sizes: number[]): Tensor;
  /** Views along dim: pieces of one size or of the listed sizes. @example tp.arange(5).split(2).length  // 3 */
  split(sizes: number | number[], dim?: number): Tensor[];
  /** Views along dim of ceil(n / chunks) each. @example tp.arange(6).chunk(3).length  // 3 */
  chunk(chunks: number, dim?: number): Tensor[];
  /** A copy reversed along each dim listed. @example tp.arange(3).flip(0)  // [2, 1, 0] */
  flip(dims: number[]): Tensor;
  flip(...dims: number[]): Tensor;
  /** Elements shifted along dims with wrap-around (flattened without dims). @example tp.arange(4).roll(1)  // [3, 0, 1, 2] */
  roll(shifts: number | number[], dims?: number | number[]): Tensor;
  /** x tiled reps[i] times along each dim (at least one rep per dim; extra ones add leading dims). @example tp.tensor([1, 2]).repeat(2, 2).shape  // [2, 4] */
  repeat(reps: number[]): Tensor;
  repeat(...reps: number[]): Tensor;
  /** As repeat, with reps padded by leading 1s. @example tp.ones([2, 3]).tile(2).shape  // [2, 6] */
  tile(reps: number[]): Tensor;
  tile(...reps: number[]): Tensor;
  /** The lower triangle of each matrix. @example tp.ones([3, 3]).tril() */
  tril(diagonal?: number): Tensor;
  /** The upper triangle of each matrix. @example tp.ones([3, 3]).triu(1) */
  triu(diagonal?: number): Tensor;
  /** A broadcast view to a larger shape; -1 keeps a size. @example tp.ones([3, 1]).expand(3, 4).shape  // [3, 4] */
  expand(shape: Shape): Tensor;
  expand(...shape: number[]): Tensor;
  /** The slice at index along dim, which is dropped: a view. @example tp.eye(3).select(0, 1).toArray()  // [0, 1, 0] */
  select(dim: number, index: number): Tensor;
  /** length entries of dim from start: a view. @example tp.arange(10).narrow(0, 2, 3).toArray()  // [2, 3, 4] */
  narrow(dim: number, start: number, length: number): Tensor;
  /** Itself when already contiguous, else a compact copy (a new handle either way). @example tp.eye(2).T.contiguous().isContiguous()  // true */
  contiguous(): Tensor;
  /** A compact copy. @example tp.ones(2).clone() */
  clone(): Tensor;
  /** A copy converted to dtype (or another tensor's dtype) as torch converts: float → int truncates toward zero, float16/bfloat16 round to nearest even, anything → bool is x != 0. @example tp.tensor([-1.7, 2.5]).to('int32').toArray()  // [-1, 2] */
  to(dtype: DTypeName | Tensor): Tensor;
  /** to('float32'). @example tp.tensor([0, 1.5]).float().dtype  // 'float32' */
  float(): Tensor;
  /** to('float64'). @example tp.tensor([0, 1.5]).double().dtype  // 'float64' */
  double(): Tensor;
  /** to('float16'). @example tp.tensor([0, 1.5]).half().dtype  // 'float16' */
  half(): Tensor;
  /** to('bfloat16'). @example tp.tensor([0, 1.5]).bfloat16().dtype  // 'bfloat16' */
  bfloat16(): Tensor;
  /** to('int32'). @example tp.tensor([0, 1.5]).int().dtype  // 'int32' */
  int(): Tensor;
  /** to('int64'). @example tp.tensor([0, 1.5]).long().dtype  // 'int64' */
  long(): Tensor;
  /** to('bool'). @example tp.tensor([0, 1.5]).bool().dtype  // 'bool' */
  bool(): Tensor;
  /** The sum over a dim, a list of dims, or every element (no dim, null or []). @example tp.ones([2, 3]).sum(-1) */
  sum(dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** The mean over a dim, a list of dims, or every element (no dim, null or []). @example tp.ones([2, 3]).mean(-1) */
  mean(dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** The largest element over a dim, a list of dims, or every element (no dim, null or []). @example tp.ones([2, 3]).amax(-1) */
  amax(dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** The smallest element over a dim, a list of dims, or every element (no dim, null or []). @example tp.ones([2, 3]).amin(-1) */
  amin(dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** The median (the lower of the two middle values, as torch) over one dim or every element; NaN for no elements. @example tp.tensor([3, 1, 2]).median().item()  // 2 */
  median(dim?: number | null, opts?: { keepdim?: boolean }): Tensor;
  /** The variance over dims (all by default), divided by N - correction (1 by default); float dtypes only, computed in double. @example tp.tensor([1, 2, 3, 4]).var() */
  var(dim?: number | number[] | null, opts?: { correction?: number; keepdim?: boolean }): Tensor;
  /** The standard deviation, √var. @example tp.tensor([1, 2, 3, 4]).std() */
  std(dim?: number | number[] | null, opts?: { correction?: number; keepdim?: boolean }): Tensor;
  /** The product over a dim, or of every element; int64 for integers and bools (as torch). @example tp.tensor([1, 2, 3]).prod() */
  prod(dim?: number | null, opts?: { keepdim?: boolean }): Tensor;
  /** Running products along dim; int64 for integers and bools (as torch). @example tp.tensor([1, 2, 3]).cumprod(0) */
  cumprod(dim: number): Tensor;
  /** log(sum(exp(x))) over dims, without overflow; float32 for integers and bools (as torch). @example tp.tensor([1, 2]).logsumexp(0) */
  logsumexp(dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** log(softmax(x)) along dim, computed stably. @example tp.tensor([1, 2, 3]).logSoftmax(-1) */
  logSoftmax(dim: number): Tensor;
  /** int64 position of the largest value (first on ties, a NaN wins). @example tp.tensor([1, 3, 3]).argmax().item()  // 1 */
  argmax(dim?: number | null, opts?: { keepdim?: boolean }): Tensor;
  /** int64 position of the smallest value. @example tp.tensor([1, 3, 0]).argmin().item()  // 2 */
  argmin(dim?: number | null, opts?: { keepdim?: boolean }): Tensor;
  /** The largest value, {values, indices} along a dim, or elementwise with a tensor. @example tp.tensor([[1, 5], [7, 2]]).max(0).values  // [7, 5] */
  max(): Tensor;
  max(dim: number, opts?: { keepdim?: boolean }): { values: Tensor; indices: Tensor };
  max(other: TensorLike): Tensor;
  /** The smallest value, {values, indices} along a dim, or elementwise with a tensor. @example tp.tensor([[1, 5], [7, 2]]).min(1).indices  // [0, 1] */
  min(): Tensor;
  min(dim: number, opts?: { keepdim?: boolean }): { values: Tensor; indices: Tensor };
  min(other: TensorLike): Tensor;
  /** The k largest (or smallest) along dim, in order. @example tp.tensor([5, 1, 9]).topk(2).values  // [9, 5] */
  topk(k: number, opts?: { dim?: number; largest?: boolean; sorted?: boolean }): { values: Tensor; indices: Tensor };
  /** Sorted along dim (stable, NaN as the largest). @example tp.tensor([3, 1, 2]).sort({ descending: true }).values  // [3, 2, 1] */
  sort(dim?: number, opts?: { descending?: boolean; stable?: boolean }): { values: Tensor; indices: Tensor };
  sort(opts: { dim?: number; descending?: boolean; stable?: boolean }): { values: Tensor; indices: Tensor };
  /** The int64 indices that sort along dim. @example tp.tensor([3, 1, 2]).argsort()  // [1, 2, 0] */
  argsort(dim?: number, opts?: { descending?: boolean; stable?: boolean }): Tensor;
  argsort(opts: { dim?: number; descending?: boolean; stable?: boolean }): Tensor;
  /** Values at index along dim (index has x's dims). @example tp.tensor([[1, 2], [3, 4]]).gather(1, [[1], [0]])  // [[2], [3]] */
  gather(dim: number, index: TensorLike): Tensor;
  /** Slices along dim at integer positions. @example tp.tensor([1, 2, 3]).indexSelect(0, [2, 0])  // [3, 1] */
  indexSelect(dim: number, index: TensorLike): Tensor;
  /** Running sums along dim. @example tp.ones(3).cumsum(0).toArray()  // [1, 2, 3] */
  cumsum(dim: number): Tensor;
  /** exp(x) / sum(exp(x)) along dim (computed stably). @example tp.zeros([2, 4]).softmax(-1) */
  softmax(dim: number): Tensor;
  /** The vector p-norm (2 by default) over dims, or of every element with no dim (a matrix flattened, as torch's x.norm). @example tp.tensor([3, 4]).norm().item()  // 5 */
  norm(ord?: number | 'fro' | null, dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** The matrix product: 1-d, 2-d and batched [..., m, k] @ [..., k, n]. @example tp.ones([2, 3]).matmul(tp.ones([3, 4])).shape  // [2, 4] */
  matmul(other: TensorLike): Tensor;
  /** Elementwise this == other as a bool tensor (tp.eq). @example tp.tensor([1, 2, 3]).eq(2).toArray() */
  eq(other: TensorLike): Tensor;
  /** Elementwise this != other as a bool tensor (tp.ne). @example tp.tensor([1, 2, 3]).ne(2).toArray() */
  ne(other: TensorLike): Tensor;
  /** Elementwise this < other as a bool tensor (tp.lt). @example tp.tensor([1, 2, 3]).lt(2).toArray() */
  lt(other: TensorLike): Tensor;
  /** Elementwise this <= other as a bool tensor (tp.le). @example tp.tensor([1, 2, 3]).le(2).toArray() */
  le(other: TensorLike): Tensor;
  /** Elementwise this > other as a bool tensor (tp.gt). @example tp.tensor([1, 2, 3]).gt(2).toArray() */
  gt(other: TensorLike): Tensor;
  /** Elementwise this >= other as a bool tensor (tp.ge). @example tp.tensor([1, 2, 3]).ge(2).toArray() */
  ge(other: TensorLike): Tensor;
  /** A copy with value where the bool mask (broadcast to this shape) is true; keeps this dtype. @example tp.zeros([2]).maskedFill(tp.tensor([true, false], { dtype: 'bool' }), -Infinity).toArray()  // [-Infinity, 0] */
  maskedFill(mask: TensorLike, value: number): Tensor;
  /** Whether any element is non-zero, over a dim, a list of dims or all of them (no dim), as a bool tensor. @example tp.tensor([[0, 1], [0, 0]]).any(-1).toArray() */
  any(dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** Whether every element is non-zero, over a dim, a list of dims or all of them (no dim), as a bool tensor. @example tp.tensor([[0, 1], [0, 0]]).all(-1).toArray() */
  all(dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** Elementwise logical not as a bool tensor (tp.logicalNot). @example tp.tensor([0, 2]).logicalNot().toArray() */
  logicalNot(): Tensor;
}

export declare class QuantizedTensor {
  private constructor();
  /** Bits per level. @example tp.quant.quantize(tp.ones(2)).bits  // 8 */
  bits: number;
  /** Whether each row has its own scale. @example tp.quant.quantize(tp.ones(2)).perRow */
  perRow: boolean;
  /** The shape of the quantized tensor. @example tp.quant.quantize(tp.ones([2, 3])).shape */
  shape: number[];
  /** Whether dispose() has freed it. @example tp.quant.quantize(tp.ones(2)).isDisposed */
  readonly isDisposed: boolean;
  /** The levels, row-major (a copy). @example tp.quant.quantize(tp.ones(2)).q */
  readonly q: Int8Array;
  /** The scale per row, or the single scale. @example tp.quant.quantize(tp.ones(2)).scale */
  readonly scale: Float32Array;
  /** levels × scale as a float32 tensor. @example tp.quant.quantize(tp.ones(2)).dequantize() */
  dequantize(): Tensor;
  /** Frees it now. @example tp.quant.quantize(tp.ones(2)).dispose() */
  dispose(): void;
  /** A one-line summary. @example String(tp.quant.quantize(tp.ones(2))) */
  toString(): string;
}

export declare class Model {
  private constructor();
  /** The sizes the forward uses (numLayers, numHeads, numKvHeads, headDim, ...) and raw, config.json as read. @example const m = await tp.model.load('tests/fixtures/models/llama-gqa-f32'); m.config.headDim; m.dispose() */
  config: ModelConfig;
  /** encode(text) → ids and decode(ids) → text from the folder's tokenizer.json (@huggingface/tokenizers, no network); without one both throw and ids still work. @example const m = await tp.model.load('tests/fixtures/models/llama-gqa-f32'); m.tokenizer.decode(m.tokenizer.encode('Alice'))  // 'Alice'
m.dispose() */
  tokenizer: ModelTokenizer;
  /** The checkpoint's tensors as stored (name, file dtype, shape). @example const m = await tp.model.load('tests/fixtures/models/llama-gqa-f32'); m.weights[0].dtype; m.dispose() */
  weights: { name: string; dtype: string; shape: number[] }[];
  /** Heap bytes the weights hold (in their file dtype). @example const m = await tp.model.load('tests/fixtures/models/llama-gqa-f32'); m.bytes; m.dispose() */
  readonly bytes: number;
  /** One weight in its file dtype (bfloat16, float16 or float32), sharing the model's storage (no copy; .float() for float32); 'lm_head.weight' of a tied model is embed_tokens. @example const m = await tp.model.load('tests/fixtures/models/llama-gqa-f32'); const w = m.weight('model.layers.0.mlp.gate_proj.weight'); w.shape; w.dispose(); m.dispose() */
  weight(name: string): Tensor;
  /** Runs the model on token ids (or text, with a tokenizer). logits: 'last' ([vocab], default), 'all' ([T, vocab]) or false. capture: names or patterns ('*' one dot-separated part, '**' any) of embed, layers.{i}.input, layers.{i}.attn.q/k/v (after q/k norm and RoPE, [heads, T, headDim]), layers.{i}.attn.weights ([heads, T, T], only when named), layers.{i}.mlp.input, layers.{i}.mlp.act, norm. onProgress after each layer; an aborted signal stops it between layers. profile: true adds profile, each op's wall ms summed over the layers and the ms helper threads worked in it (0 when it ran on one thread). @example const m = await tp.model.load('tests/fixtures/models/llama-gqa-f32'); const { logits, captures } = await m.forward([1, 2, 3], { capture: 'layers.*.attn.k' }); captures['layers.0.attn.k'].shape
tp.dispose(logits, captures); m.dispose() */
  forward(input: string | ArrayLike<number>, opts?: ForwardOptions): Promise<ForwardResult>;
  /** Greedy decoding over a KV cache: up to maxNewTokens (32) new ids, stopping at an eos id of config.json; text when the model has a tokenizer. @example const m = await tp.model.load('tests/fixtures/models/llama-gqa-f32'); (await m.generate('Alice dropped', { maxNewTokens: 3 })).ids.length
m.dispose() */
  generate(input: string | ArrayLike<number>, opts?: { maxNewTokens?: number; greedy?: true; onToken?: (id: number) => void; signal?: AbortSignal }): Promise<{ ids: number[]; text: string | null }>;
  /** Frees the weights (tp.memory() drops back); the model is unusable afterwards. @example const m = await tp.model.load('tests/fixtures/models/llama-gqa-f32'); m.dispose() */
  dispose(): void;
}

export interface Tp {
  /** The tensor class (for instanceof). @example tp.ones(1) instanceof tp.Tensor  // true */
  Tensor: typeof Tensor;
  /** The one error type: its message names the operation and the offending values; .op is that operation. @example try { tp.eye(-1); } catch (e) { e instanceof tp.TensorpadError; } */
  TensorpadError: typeof TensorpadError;
  /** Whether x is a tensor of this API. @example tp.isTensor(tp.ones(1))  // true */
  isTensor(x: unknown): x is Tensor;
  /** A tensor from a number, nested arrays (ragged ones refused with their position), a typed array, or a list of equally shaped tensors (stacked). Without dtype: booleans give bool, a typed array its own dtype (Int32Array int32, ...), numbers float32. @example tp.tensor([[1, 2], [3, 4]], { dtype: 'int64' }).shape  // [2, 2] */
  tensor(data: TensorLike, opts?: { shape?: Shape; dtype?: DTypeName }): Tensor;
  /** A tensor of zeros (float32 unless dtype is given). @example tp.zeros([2, 3], { dtype: 'int32' }) */
  zeros(shape: Shape, opts?: { dtype?: DTypeName }): Tensor;
  zeros(...sizes: number[]): Tensor;
  zeros(...sizesThenOptions: [...number[], { dtype?: DTypeName }]): Tensor;
  /** A tensor of ones (float32 unless dtype is given). @example tp.ones(2, 3) */
  ones(shape: Shape, opts?: { dtype?: DTypeName }): Tensor;
  ones(...sizes: number[]): Tensor;
  ones(...sizesThenOptions: [...number[], { dtype?: DTypeName }]): Tensor;
  /** A tensor with every element value, converted to dtype (float32 by default, bool for a boolean value). @example tp.full([2, 2], 7) */
  full(shape: Shape, value: number | boolean, opts?: { dtype?: DTypeName }): Tensor;
  /** Zeros of x's shape and dtype (unless dtype is given). @example tp.zerosLike(tp.ones([2, 3])).shape */
  zerosLike(x: Tensor, opts?: { dtype?: DTypeName }): Tensor;
  /** Ones of x's shape and dtype (unless dtype is given). @example tp.onesLike(tp.zeros([2, 3])).shape */
  onesLike(x: Tensor, opts?: { dtype?: DTypeName }): Tensor;
  /** The n x m identity (m = n by default). @example tp.eye(3) */
  eye(n: number, m?: number): Tensor;
  /** [start, end) by step, as torch; float32 unless dtype is given (each value computed in double, so int64 is exact within ±2^53). @example tp.arange(0, 1, 0.25).toArray()  // [0, 0.25, 0.5, 0.75] */
  arange(end: number, opts?: { dtype?: DTypeName }): Tensor;
  arange(start: number, end: number, opts?: { dtype?: DTypeName }): Tensor;
  arange(start: number, end: number, step: number, opts?: { dtype?: DTypeName }): Tensor;
  /** Standard normal samples; the same seed gives the same bits in Node, the browser and C++. @example tp.randn([2, 3], { seed: 1 }) */
  randn(shape: Shape, opts?: RandomOptions): Tensor;
  randn(...sizes: number[]): Tensor;
  randn(...sizesThenOptions: [...number[], RandomOptions]): Tensor;
  /** Uniform samples in [0, 1). @example tp.rand(2, 3, { seed: 1 }) */
  rand(shape: Shape, opts?: RandomOptions): Tensor;
  rand(...sizes: number[]): Tensor;
  rand(...sizesThenOptions: [...number[], RandomOptions]): Tensor;
  /** Seeds the generator used when randn/rand get no seed. @example tp.manualSeed(42) */
  manualSeed(seed: number): void;
  /** Elementwise a + b, broadcasting (either may be a number). @example tp.add(tp.ones(2), 2) */
  add(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise a - b, broadcasting (either may be a number). @example tp.sub(tp.ones(2), 2) */
  sub(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise a * b, broadcasting (either may be a number). @example tp.mul(tp.ones(2), 2) */
  mul(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise a / b, broadcasting (either may be a number). @example tp.div(tp.ones(2), 2) */
  div(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise a ** b, broadcasting (either may be a number). @example tp.pow(tp.ones(2), 2) */
  pow(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise the larger of a and b, broadcasting (either may be a number). @example tp.maximum(tp.ones(2), 2) */
  maximum(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise the smaller of a and b, broadcasting (either may be a number). @example tp.minimum(tp.ones(2), 2) */
  minimum(a: TensorLike, b: TensorLike): Tensor;
  /** The matrix product: 1-d, 2-d and batched [..., m, k] @ [..., k, n]. @example tp.matmul(tp.eye(2), [[1], [2]]).toArray()  // [[1], [2]] */
  matmul(a: TensorLike, b: TensorLike): Tensor;
  /** The outer product of two vectors: (m) x (n) → (m, n). @example tp.outer([1, 2], [1, 1, 1]).shape  // [2, 3] */
  outer(a: TensorLike, b: TensorLike): Tensor;
  /** exp(x) / sum(exp(x)) along dim. @example tp.softmax([1, 2, 3], -1) */
  softmax(x: TensorLike, dim: number): Tensor;
  /** Equally shaped tensors joined along a new dim. @example tp.stack([tp.ones(2), tp.zeros(2)]).shape  // [2, 2] */
  stack(list: TensorLike[], dim?: number): Tensor;
  /** Tensors joined along an existing dim (1-d empty ones skipped, as torch). @example tp.cat([tp.ones(2), tp.zeros(3)]).shape  // [5] */
  cat(list: TensorLike[], dim?: number): Tensor;
  /** A bool tensor: true where |a - b| <= atol + rtol * |b| (rtol 1e-5, atol 1e-8); equalNan makes two NaNs close. @example tp.isclose([1, 2], [1, 2.1]).toArray()  // [true, false] */
  isclose(a: TensorLike, b: TensorLike, opts?: CloseOptions): Tensor;
  /** Whether every element is close, as isclose. @example tp.allclose(tp.ones(2), [1, 1 + 1e-7])  // true */
  allclose(a: TensorLike, b: TensorLike, opts?: CloseOptions): boolean;
  /** Elementwise -x; also x.neg(). @example tp.neg([1, -2]) */
  neg(x: TensorLike): Tensor;
  /** Elementwise |x|; also x.abs(). @example tp.abs([-1, 2]) */
  abs(x: TensorLike): Tensor;
  /** Elementwise √x (NaN below 0); also x.sqrt(). @example tp.sqrt([4, 9]) */
  sqrt(x: TensorLike): Tensor;
  /** Elementwise e^x; also x.exp(). @example tp.exp([0, 1]) */
  exp(x: TensorLike): Tensor;
  /** Elementwise The natural log (-inf at 0, NaN below); also x.log(). @example tp.log([1, Math.E]) */
  log(x: TensorLike): Tensor;
  /** Elementwise x²; also x.square(). @example tp.square([2, 3]) */
  square(x: TensorLike): Tensor;
  /** Elementwise Round half to even, as torch; also x.round(). @example tp.round([0.5, 1.5]) */
  round(x: TensorLike): Tensor;
  /** Elementwise max(x, 0); also x.relu(). @example tp.relu([-1, 2]) */
  relu(x: TensorLike): Tensor;
  /** Elementwise -1, 0 or 1 (NaN stays); also x.sign(). @example tp.sign([-3, 0, 2]) */
  sign(x: TensorLike): Tensor;
  /** Elementwise sin x (radians); also x.sin(). @example tp.sin([0, Math.PI / 2]) */
  sin(x: TensorLike): Tensor;
  /** Elementwise cos x (radians); also x.cos(). @example tp.cos([0, Math.PI]) */
  cos(x: TensorLike): Tensor;
  /** Elementwise tan x (radians); also x.tan(). @example tp.tan([0, 1]) */
  tan(x: TensorLike): Tensor;
  /** Elementwise tanh x; also x.tanh(). @example tp.tanh([-1, 0, 1]) */
  tanh(x: TensorLike): Tensor;
  /** Elementwise 1 / (1 + e^-x); also x.sigmoid(). @example tp.sigmoid([-2, 0, 2]) */
  sigmoid(x: TensorLike): Tensor;
  /** Elementwise The error function; also x.erf(). @example tp.erf([0, 1]) */
  erf(x: TensorLike): Tensor;
  /** Elementwise e^x - 1, exact for tiny x; also x.expm1(). @example tp.expm1([1e-10]) */
  expm1(x: TensorLike): Tensor;
  /** Elementwise log(1 + x), exact for tiny x; also x.log1p(). @example tp.log1p([1e-10]) */
  log1p(x: TensorLike): Tensor;
  /** Elementwise 1 / √x; also x.rsqrt(). @example tp.rsqrt([4, 16]) */
  rsqrt(x: TensorLike): Tensor;
  /** Elementwise 1 / x; also x.reciprocal(). @example tp.reciprocal([2, -4]) */
  reciprocal(x: TensorLike): Tensor;
  /** Elementwise Rounded toward -inf; also x.floor(). @example tp.floor([-1.5, 1.5]) */
  floor(x: TensorLike): Tensor;
  /** Elementwise Rounded toward +inf; also x.ceil(). @example tp.ceil([-1.5, 1.5]) */
  ceil(x: TensorLike): Tensor;
  /** Elementwise Rounded toward 0; also x.trunc(). @example tp.trunc([-1.5, 1.5]) */
  trunc(x: TensorLike): Tensor;
  /** steps evenly spaced values from start to end, both included. @example tp.linspace(0, 1, 5)  // [0, 0.25, 0.5, 0.75, 1] */
  linspace(start: number, end: number, steps: number, opts?: { dtype?: string }): Tensor;
  /** base^linspace(start, end, steps), base 10 by default. @example tp.logspace(0, 2, 3)  // [1, 10, 100] */
  logspace(start: number, end: number, steps: number, base?: number): Tensor;
  logspace(start: number, end: number, steps: number, opts?: { base?: number; dtype?: string }): Tensor;
  /** Views along dim: pieces of one size (the last may be shorter) or of the listed sizes. @example tp.split(tp.arange(5), 2).map((t) => t.shape)  // [[2], [2], [1]] */
  split(x: TensorLike, sizes: number | number[], dim?: number): Tensor[];
  /** Views along dim of ceil(n / chunks) each (so maybe fewer pieces), as torch.chunk. @example tp.chunk(tp.arange(6), 3).length  // 3 */
  chunk(x: TensorLike, chunks: number, dim?: number): Tensor[];
  /** Dims startDim..endDim (all by default) merged into one. @example tp.flatten(tp.zeros([2, 3, 4]), 1).shape  // [2, 12] */
  flatten(x: TensorLike, startDim?: number, endDim?: number): Tensor;
  /** dim split into sizes (one may be -1). @example tp.unflatten(tp.zeros([6]), 0, [2, -1]).shape  // [2, 3] */
  unflatten(x: TensorLike, dim: number, sizes: number[]): Tensor;
  /** Size-1 dims removed: all, or those of dim that have size 1 (a view). @example tp.squeeze(tp.zeros([1, 3, 1])).shape  // [3] */
  squeeze(x: TensorLike, dim?: number | number[]): Tensor;
  /** A size-1 dim inserted at dim (a view). @example tp.unsqueeze([1, 2], 0).shape  // [1, 2] */
  unsqueeze(x: TensorLike, dim: number): Tensor;
  /** A copy reversed along each dim listed. @example tp.flip([1, 2, 3], 0)  // [3, 2, 1] */
  flip(x: TensorLike, dims: number | number[]): Tensor;
  /** Elements shifted along dims with wrap-around; without dims over the flattened tensor. @example tp.roll([1, 2, 3, 4], 1)  // [4, 1, 2, 3] */
  roll(x: TensorLike, shifts: number | number[], dims?: number | number[]): Tensor;
  /** x repeated reps[i] times along each dim (reps padded with leading 1s). @example tp.tile([1, 2], [2]).toArray()  // [1, 2, 1, 2] */
  tile(x: TensorLike, reps: number | number[]): Tensor;
  /** The lower triangle of each matrix (*, m, n): entries above the diagonal-th diagonal set to 0. @example tp.tril(tp.ones([3, 3])) */
  tril(x: TensorLike, diagonal?: number): Tensor;
  /** The upper triangle: entries below the diagonal-th diagonal set to 0 (triu(1) of -inf is a causal mask). @example tp.full([3, 3], -Infinity).triu(1) */
  triu(x: TensorLike, diagonal?: number): Tensor;
  /** The variance over dims (all by default), dividing by N - correction (1 by default). @example tp.var([1, 2, 3, 4]).item()  // 1.666… */
  var(x: TensorLike, dim?: number | number[] | null, opts?: { correction?: number; keepdim?: boolean }): Tensor;
  /** The standard deviation, √var. @example tp.std([1, 2, 3, 4], 0, { correction: 0 }) */
  std(x: TensorLike, dim?: number | number[] | null, opts?: { correction?: number; keepdim?: boolean }): Tensor;
  /** log(sum(exp(x))) over dims, without overflow; float32 for integers and bools (as torch). @example tp.logsumexp([1000, 1000], 0).item()  // 1000.69… */
  logsumexp(x: TensorLike, dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** The product over a dim, or of every element; int64 for integers and bools (as torch). @example tp.prod([[1, 2], [3, 4]], 1)  // [2, 12] */
  prod(x: TensorLike, dim?: number | null, opts?: { keepdim?: boolean }): Tensor;
  /** Running products along dim; int64 for integers and bools (as torch). @example tp.cumprod([1, 2, 3], 0)  // [1, 2, 6] */
  cumprod(x: TensorLike, dim: number): Tensor;
  /** log(softmax(x)) along dim, computed stably as x - logsumexp. @example tp.logSoftmax([1, 2, 3], -1) */
  logSoftmax(x: TensorLike, dim: number): Tensor;
  /** Einstein summation as torch.einsum ("..." broadcasts; no "->": the labels used once, sorted); pairs contract left to right on the GEMM. @example tp.einsum('bqd,bkd->bqk', tp.ones([2, 3, 4]), tp.ones([2, 5, 4])).shape  // [2, 3, 5] */
  einsum(equation: string, ...operands: TensorLike[]): Tensor;
  einsum(equation: string, operands: TensorLike[]): Tensor;
  /** int64 position of the largest value along dim (of x flattened without dim); the first on ties, a NaN wins. @example tp.argmax([1, 3, 3]).item()  // 1 */
  argmax(x: TensorLike, dim?: number | null, opts?: { keepdim?: boolean }): Tensor;
  /** int64 position of the smallest value (first on ties, a NaN wins). @example tp.argmin([[4, 1], [0, 2]], 1)  // [1, 0] */
  argmin(x: TensorLike, dim?: number | null, opts?: { keepdim?: boolean }): Tensor;
  /** The largest value of all; along a dim {values, indices}; with a tensor, elementwise (as maximum). @example tp.max([[1, 5], [7, 2]], 1).indices  // [1, 0] */
  max(x: TensorLike): Tensor;
  max(x: TensorLike, dim: number, opts?: { keepdim?: boolean }): { values: Tensor; indices: Tensor };
  max(x: TensorLike, other: TensorLike): Tensor;
  /** The smallest value of all; along a dim {values, indices}; with a tensor, elementwise (as minimum). @example tp.min([[1, 5], [7, 2]], 1).values  // [1, 2] */
  min(x: TensorLike): Tensor;
  min(x: TensorLike, dim: number, opts?: { keepdim?: boolean }): { values: Tensor; indices: Tensor };
  min(x: TensorLike, other: TensorLike): Tensor;
  /** The k largest (or smallest) along dim (-1 by default), in order; ties by position. @example tp.topk([5, 1, 9, 3], 2).indices  // [2, 0] */
  topk(x: TensorLike, k: number, opts?: { dim?: number; largest?: boolean; sorted?: boolean }): { values: Tensor; indices: Tensor };
  /** Sorted along dim (-1 by default), stable; NaN sorts as the largest. @example tp.sort([3, 1, 2]).values  // [1, 2, 3] */
  sort(x: TensorLike, dim?: number, opts?: { descending?: boolean; stable?: boolean }): { values: Tensor; indices: Tensor };
  sort(x: TensorLike, opts: { dim?: number; descending?: boolean; stable?: boolean }): { values: Tensor; indices: Tensor };
  /** The int64 indices that sort x along dim (stable). @example tp.argsort([3, 1, 2])  // [1, 2, 0] */
  argsort(x: TensorLike, dim?: number, opts?: { descending?: boolean; stable?: boolean }): Tensor;
  argsort(x: TensorLike, opts: { dim?: number; descending?: boolean; stable?: boolean }): Tensor;
  /** out[p] = x[p with its dim coordinate replaced by index[p]] (index int64, or a JS array). @example tp.gather([[1, 2], [3, 4]], 1, [[1], [0]])  // [[2], [3]] */
  gather(x: TensorLike, dim: number, index: TensorLike): Tensor;
  /** The slices of x along dim at the given integer positions. @example tp.indexSelect([[1, 2], [3, 4]], 0, [1, 1])  // [[3, 4], [3, 4]] */
  indexSelect(x: TensorLike, dim: number, index: TensorLike): Tensor;
  /** Runs fn and frees every tensor it created except those it returns (in arrays or plain objects too); fn must be synchronous. @example const s = tp.tidy(() => tp.ones(3).mul(2).sum()); */
  tidy<T>(fn: () => T): T;
  /** Frees the tensors in its arguments (arrays and objects searched). @example tp.dispose([tp.ones(1), { a: tp.ones(1) }]) */
  dispose(...xs: unknown[]): void;
  /** Live handles and the WebAssembly heap bytes they hold; scratch: the bytes the core keeps between calls for its own work (eigh's and svd's, up to 16 MB), not in bytes. @example tp.memory().tensors */
  memory(): Memory;
  /** Threads for large products (more than 1 only with the pthreads core, in a crossOriginIsolated page); returns the count in use. @example tp.setNumThreads(2) */
  setNumThreads(n: number): number;
  /** Threads in use: 1 outside the pthreads core. @example tp.getNumThreads() */
  getNumThreads(): number;
  /** Browser only: which core runs (web-mt: pthreads). (browser only) @example tp.coreFlavor */
  coreFlavor?: 'web' | 'web-mt';
  /** Browser only: why the pthreads core is not running, or null. (browser only) @example tp.threadsFallback */
  threadsFallback?: string | null;
  /** Elementwise a == b as a bool tensor, broadcasting, compared in torch's promoted dtype (a or b may be a number). @example tp.eq(tp.tensor([1, 2, 3]), 2).toArray() */
  eq(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise a != b as a bool tensor, broadcasting, compared in torch's promoted dtype (a or b may be a number). @example tp.ne(tp.tensor([1, 2, 3]), 2).toArray() */
  ne(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise a < b as a bool tensor, broadcasting, compared in torch's promoted dtype (a or b may be a number). @example tp.lt(tp.tensor([1, 2, 3]), 2).toArray() */
  lt(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise a <= b as a bool tensor, broadcasting, compared in torch's promoted dtype (a or b may be a number). @example tp.le(tp.tensor([1, 2, 3]), 2).toArray() */
  le(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise a > b as a bool tensor, broadcasting, compared in torch's promoted dtype (a or b may be a number). @example tp.gt(tp.tensor([1, 2, 3]), 2).toArray() */
  gt(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise a >= b as a bool tensor, broadcasting, compared in torch's promoted dtype (a or b may be a number). @example tp.ge(tp.tensor([1, 2, 3]), 2).toArray() */
  ge(a: TensorLike, b: TensorLike): Tensor;
  /** a where the bool condition is true, else b; all three broadcast, the result in a and b's promoted dtype (either may be a number). @example tp.where(tp.tensor([true, false], { dtype: 'bool' }), tp.tensor([1, 2]), 0).toArray()  // [1, 0] */
  where(condition: TensorLike, a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise logical and as a bool tensor; any non-zero value (NaN too) is true. @example tp.logicalAnd([0, 1, 2], [1, 1, 0]).toArray() */
  logicalAnd(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise logical or as a bool tensor; any non-zero value (NaN too) is true. @example tp.logicalOr([0, 1, 2], [1, 1, 0]).toArray() */
  logicalOr(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise logical xor as a bool tensor; any non-zero value (NaN too) is true. @example tp.logicalXor([0, 1, 2], [1, 1, 0]).toArray() */
  logicalXor(a: TensorLike, b: TensorLike): Tensor;
  /** Elementwise logical not as a bool tensor: true where x is 0. @example tp.logicalNot([0, 1, 2]).toArray()  // [true, false, false] */
  logicalNot(x: TensorLike): Tensor;
  linalg: TpLinalg;
  nn: TpNn;
  quant: TpQuant;
  lora: TpLora;
  synth: TpSynth;
  io: TpIo;
  model: TpModel;
}

export interface TpLinalg {
  /** Thin SVD of a matrix or batch of matrices (*, m, n): U (*,m,k), S (*,k) descending, Vh (*,k,n), k = min(m, n). @example const { U, S, Vh } = tp.linalg.svd(tp.randn([4, 3], { seed: 1 })); */
  svd(A: TensorLike): { U: Tensor; S: Tensor; Vh: Tensor };
  /** The singular values (*,k), descending. @example tp.linalg.svdvals([[3, 0], [0, 4]]).toArray()  // [4, 3] */
  svdvals(A: TensorLike): Tensor;
  /** Reduced QR: Q (*,m,k) with orthonormal columns, R (*,k,n) upper-triangular. @example const { Q, R } = tp.linalg.qr(tp.randn([4, 3], { seed: 1 })); */
  qr(A: TensorLike): { Q: Tensor; R: Tensor };
  /** Eigen-decomposition of a symmetric matrix (its lower triangle is read): eigenvalues ascending, eigenvectors in columns. @example tp.linalg.eigh([[2, 1], [1, 2]]).eigenvalues.toArray()  // [1, 3] */
  eigh(A: TensorLike): { eigenvalues: Tensor; eigenvectors: Tensor };
  /** The eigenvalues of a symmetric matrix, ascending. @example tp.linalg.eigvalsh([[2, 0], [0, 1]]).toArray()  // [1, 2] */
  eigvalsh(A: TensorLike): Tensor;
  /** The determinant per matrix (0 when singular to the input's precision); float32 or float64, in its dtype. @example tp.linalg.det([[1, 2], [3, 4]]).item()  // -2 */
  det(A: TensorLike): Tensor;
  /** The inverse per matrix; a singular matrix is an error. @example tp.linalg.inv([[2, 0], [0, 4]]).toArray() */
  inv(A: TensorLike): Tensor;
  /** X with A X = B; B (*,n) or (*,n,k), batch dims broadcast. @example tp.linalg.solve([[2, 0], [0, 4]], [2, 4]).toArray()  // [1, 1] */
  solve(A: TensorLike, B: TensorLike): Tensor;
  /** torch.linalg.norm: a matrix ord without dim gives one norm per matrix; no ord gives the 2-norm of every element; a dim gives vector norms (a pair of dims with an ord: matrix norms over them). @example tp.linalg.norm([[3, 0], [0, 4]], 'fro').item()  // 5 */
  norm(A: TensorLike, ord?: number | 'fro' | 'nuc' | null, dim?: number | number[] | null, opts?: { keepdim?: boolean }): Tensor;
  /** One matrix norm per matrix: 'fro', 'nuc', 2, -2, 1, -1, Infinity or -Infinity. @example tp.linalg.matrixNorm([[1, 2], [3, 4]], 1).item()  // 6 */
  matrixNorm(A: TensorLike, ord?: number | 'fro' | 'nuc', opts?: { keepdim?: boolean }): Tensor;
  /** The number of singular values above tol (default σ1·max(m,n)·eps32); a tensor of counts for a batch. @example tp.linalg.matrixRank([[1, 2], [2, 4]])  // 1 */
  matrixRank(A: TensorLike, opts?: { tol?: number }): number | Tensor;
  /** Randomized rank-q SVD (q = 6, niter = 2): A ≈ U diag(S) Vᵀ. @example const { U, S, V } = tp.linalg.svdLowrank(tp.randn([20, 10], { seed: 1 }), 3, { seed: 2 }); */
  svdLowrank(A: TensorLike, q?: number, opts?: { niter?: number; seed?: number }): { U: Tensor; S: Tensor; V: Tensor };
  /** A^k per matrix (*, n, n) by repeated squaring; I for k = 0, inv(A)^|k| for k < 0. @example tp.linalg.matrixPower([[1, 1], [0, 1]], 3)  // [[1, 3], [0, 1]] */
  matrixPower(A: TensorLike, k: number): Tensor;
  /** The pseudo-inverse (*, n, m) via the SVD, dropping s ≤ max(atol, rtol·s_max); rtol defaults to max(m, n)·eps32 without atol. @example tp.linalg.pinv([[1, 2], [2, 4]]) */
  pinv(A: TensorLike, opts?: { atol?: number; rtol?: number }): Tensor;
  /** The condition number per matrix: s_max / s_min without ord; else norm(A)·norm(inv A) (square A), Infinity if singular. @example tp.linalg.cond([[1, 0], [0, 10]]).item()  // 10 */
  cond(A: TensorLike, ord?: number | 'fro' | 'nuc'): Tensor;
  /** The orthonormal n x n Hadamard matrix (n a power of 2). @example tp.linalg.hadamard(4) */
  hadamard(n: number): Tensor;
  /** The orthonormal fast Walsh-Hadamard transform of the last dim (in blocks of block, if given). @example tp.linalg.fwht([1, 1, 1, 1]).toArray()  // [2, 0, 0, 0] */
  fwht(x: TensorLike, opts?: { block?: number }): Tensor;
  /** A random n x n orthogonal matrix (Haar), reproducible by seed. @example tp.linalg.randomOrthogonal(4, { seed: 1 }) */
  randomOrthogonal(n: number, opts?: RandomOptions): Tensor;
  /** The block-diagonal matrix of the given blocks (as torch.block_diag). @example tp.linalg.blockDiag(tp.eye(2), [[5]]).shape  // [3, 3] */
  blockDiag(...mats: TensorLike[]): Tensor;
  blockDiag(mats: TensorLike[]): Tensor;
}

export interface TpNn {
  /** softmax(Q Kᵀ · scale + mask) V, as torch: Q [..., Hq, n, d], K/V [..., Hkv, m, d]; a boolean mask attends where true; enableGqa groups query heads over fewer K/V heads. @example const out = tp.nn.scaledDotProductAttention(tp.randn([2, 4, 8], { seed: 1 }), tp.randn([2, 4, 8], { seed: 2 }), tp.randn([2, 4, 8], { seed: 3 }), { causal: true }); */
  scaledDotProductAttention(Q: TensorLike, K: TensorLike, V: TensorLike, opts: { causal?: boolean; mask?: TensorLike; scale?: number; enableGqa?: boolean; returnWeights: true }): { output: Tensor; weights: Tensor };
  scaledDotProductAttention(Q: TensorLike, K: TensorLike, V: TensorLike, opts?: { causal?: boolean; mask?: TensorLike; scale?: number; enableGqa?: boolean; returnWeights?: false }): Tensor;
  /** X Wq, X Wk, X Wv split into heads, attention per head, heads concatenated, times Wo; kvHeads < heads is GQA. @example const W = tp.randn([8, 8], { seed: 1 }); tp.nn.multiHeadAttention(tp.randn([4, 8], { seed: 2 }), { Wq: W, Wk: W, Wv: W, Wo: W, heads: 2 }); */
  multiHeadAttention(X: TensorLike, opts: { Wq: TensorLike; Wk: TensorLike; Wv: TensorLike; Wo: TensorLike; heads?: number; kvHeads?: number; causal?: boolean }): Tensor;
  /** Layer normalization over the last dim (eps 1e-5). @example tp.nn.layerNorm([[1, 2, 3]]) */
  layerNorm(x: TensorLike, opts?: { weight?: TensorLike; bias?: TensorLike; eps?: number }): Tensor;
  /** x / sqrt(mean(x²) + eps) over the last dim, times weight (eps 1e-6, Llama's). @example tp.nn.rmsNorm([[3, 4]]) */
  rmsNorm(x: TensorLike, opts?: { weight?: TensorLike; eps?: number }): Tensor;
  /** max(x, 0). @example tp.nn.relu([-1, 2]).toArray()  // [0, 2] */
  relu(x: TensorLike): Tensor;
  /** GELU, exact (erf) or torch's tanh approximation. @example tp.nn.gelu([0, 1], { approximate: 'tanh' }) */
  gelu(x: TensorLike, opts?: { approximate?: 'none' | 'tanh' }): Tensor;
  /** x · sigmoid(x). @example tp.nn.silu([0, 1]) */
  silu(x: TensorLike): Tensor;
  /** The (dim, dim) rotation R with x @ R rotating adjacent pairs (x[2i], x[2i+1]) by pos·θ^(-2i/dim) (θ = 10000). @example tp.nn.ropeMatrix(3, 4).shape  // [4, 4] */
  ropeMatrix(pos: number, dim: number, opts?: { theta?: number }): Tensor;
  /** RoPE applied to x [..., n, dim] at the given positions (default 0..n-1). @example tp.nn.applyRope(tp.ones([3, 4])) */
  applyRope(x: TensorLike, positions?: number[] | ArrayLike<number> | Tensor | null, opts?: { theta?: number }): Tensor;
  /** Rows of weight (num, d) at integer ids (any shape) → (..., d), as torch.nn.functional.embedding. @example tp.nn.embedding([[2, 0]], tp.eye(3)).shape  // [1, 2, 3] */
  embedding(ids: TensorLike, weight: TensorLike): Tensor;
}

export interface TpQuant {
  /** The class of quantize's results (int levels and scales in the WebAssembly heap). @example tp.quant.quantize(tp.ones([2, 2])) instanceof tp.quant.QuantizedTensor */
  QuantizedTensor: typeof QuantizedTensor;
  /** Symmetric absmax quantization to bits (8) and back, per tensor or per row. @example tp.quant.fakeQuant([0.1, 0.5, -1], { bits: 4 }) */
  fakeQuant(x: TensorLike, opts?: { bits?: number; perRow?: boolean }): Tensor;
  /** ‖approx - exact‖ / ‖exact‖ (Frobenius). @example tp.quant.relError([1, 2.1], [1, 2]) */
  relError(approx: TensorLike, exact: TensorLike): number;
  /** int8 storage of x (bits <= 8), freed like a tensor. @example const q = tp.quant.quantize(tp.randn([4, 8], { seed: 1 }), { perRow: true }); */
  quantize(x: TensorLike, opts?: { bits?: number; perRow?: boolean }): QuantizedTensor;
  /** qa (m,k) times qb (n,k) transposed, in int32, dequantized: as x Wᵀ. @example const a = tp.quant.quantize(tp.ones([2, 4])); tp.quant.matmulInt8(a, a).shape  // [2, 2] */
  matmulInt8(qa: QuantizedTensor, qb: QuantizedTensor): Tensor;
}

export interface TpLora {
  /** The trainable parameters of a rank-r LoRA of a (dOut, dIn) matrix: r·(dOut + dIn). @example tp.lora.params(4096, 4096, 8)  // 65536 */
  params(dOut: number, dIn: number, r: number): number;
  /** W + (alpha / r) · B A, with A (r, dIn), B (dOut, r), alpha = r by default. @example tp.lora.merge(tp.zeros([3, 2]), tp.ones([1, 2]), tp.ones([3, 1])) */
  merge(W: TensorLike, A: TensorLike, B: TensorLike, opts?: { alpha?: number; r?: number }): Tensor;
}

export interface TpSynth {
  /** LLM-like activations (tokens, dim) with a few large outlier channels: synthetic, not from a model. @example tp.synth.activations({ tokens: 16, dim: 32 }).shape  // [16, 32] */
  activations(opts?: { tokens?: number; dim?: number; outliers?: number; outlierScale?: number; seed?: number }): Tensor;
}

export interface TpIo {
  /** A safetensors or .npy file (told apart by its bytes), read lazily: list its tensors, then get(name). @example const f = await tp.io.open(tp.io.saveNpy(tp.ones(3))); f.tensors  // [{ name: "array", dtype: "F32", shape: [3] }] */
  open(source: TensorSource): Promise<TensorFile>;
  /** A safetensors file, read one tensor at a time; get(name) gives the stored dtype (BF16 as bfloat16, I64 as int64, ...), get(name, {dtype}) converts while reading. @example const f = await tp.io.openSafetensors(tp.io.saveSafetensors({ w: tp.ones(2) })); await f.get('w'); */
  openSafetensors(source: TensorSource): Promise<TensorFile>;
  /** A whole .npy file as a tensor in its stored dtype ('<i8' as int64, '|b1' as bool, ...) or opts.dtype; Fortran order converted. @example await tp.io.loadNpy(tp.io.saveNpy(tp.eye(2))) */
  loadNpy(source: TensorSource, opts?: { dtype?: DTypeName }): Promise<Tensor>;
  /** The bytes numpy.save writes for this tensor, in its dtype or opts.dtype (numpy has no bfloat16). @example tp.io.saveNpy(tp.ones(2)).length */
  saveNpy(tensor: Tensor, opts?: { dtype?: DTypeName | 'F32' | 'F64' | 'F16' | 'I64' | 'I32' | 'I16' | 'I8' | 'U8' | 'BOOL' }): Uint8Array;
  /** A safetensors file of named tensors, each in its dtype, or opts.dtype for all or per name (from float32, F16/BF16 round to nearest even). @example tp.io.saveSafetensors({ w: tp.ones(2) }, { dtype: 'BF16' }) */
  saveSafetensors(tensors: Record<string, Tensor>, opts?: { metadata?: Record<string, string>; dtype?: string | Record<string, string> }): Uint8Array;
}

export interface TpModel {
  /** A Hugging Face checkpoint (Qwen3ForCausalLM, Qwen2ForCausalLM, LlamaForCausalLM) from a folder path (Node) or the folder's Files (browser): config.json, *.safetensors (sharded with model.safetensors.index.json), tokenizer.json optional. Weights stay in their file dtype, read tensor by tensor; a missing/extra/misshapen tensor, an unknown architecture or a truncated shard is an error naming it. @example const m = await tp.model.load('tests/fixtures/models/llama-gqa-f32'); m.config.numLayers  // 2
m.dispose() */
  load(source: ModelSource, opts?: { onProgress?: (p: LoadProgress) => void; signal?: AbortSignal }): Promise<Model>;
}
