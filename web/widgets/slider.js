// A slider bound to a name in the cells' scope: moving it re-runs the cells that read the name.
// Also a minimal example of the widget API (see web/chapters/FORMAT.md):
//   :::widget slider name=k min=1 max=10 step=1 value=3 label="Rank k"
// With show=norm it also asks tp, in the worker, for the norm of [1..value] (exercising ctx.compute).

// The keys a :::widget directive may set (web/build.mjs refuses others).
export const props = ['name', 'label', 'min', 'max', 'step', 'value', 'show'];

export function mount(container, ctx) {
  const { name = 'x', label = name } = ctx.props;
  const min = Number(ctx.props.min ?? 0), max = Number(ctx.props.max ?? 10), step = Number(ctx.props.step ?? 1);
  const initial = Number(ctx.props.value ?? min);
  const id = `${ctx.id}-input`;
  container.innerHTML = '';
  const row = document.createElement('div');
  row.className = 'slider-row';
  const lab = document.createElement('label');
  lab.htmlFor = id;
  lab.textContent = label;
  const input = document.createElement('input');
  Object.assign(input, { type: 'range', id, min, max, step, value: initial });
  input.dataset.testid = 'widget-slider';
  const out = document.createElement('output');
  out.htmlFor = id;
  out.textContent = `${name} = ${initial}`;
  const extra = document.createElement('span');
  extra.className = 'slider-extra';
  extra.dataset.testid = 'widget-readout';
  row.append(lab, input, out, extra);
  container.append(row);

  const update = async (value, rerun) => {
    out.textContent = `${name} = ${value}`;
    ctx.set(name, value, { rerun });
    let text = `${label}: ${value}`;
    if (ctx.props.show === 'norm') {
      try {
        const norm = await ctx.compute((tp, n) => {
          const v = tp.arange(1, n + 1);
          const r = tp.linalg.norm(v).item();
          v.dispose?.();
          return r;
        }, value);
        extra.textContent = `‖[1…${value}]‖ = ${norm.toFixed(4)}`;
        text += `, ${extra.textContent}`;
      } catch (e) {
        extra.textContent = e.message;
      }
    }
    ctx.describe(text);
  };
  input.addEventListener('input', () => update(Number(input.value), true));
  ctx.watch(name, (v) => {
    if (typeof v === 'number' && v !== Number(input.value)) {
      input.value = String(v);
      out.textContent = `${name} = ${v}`;
    }
  });
  update(initial, false);
  return { destroy() { container.innerHTML = ''; } };
}
