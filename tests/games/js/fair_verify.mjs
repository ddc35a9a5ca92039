// Reads [{record, procedure, frames, server_seed?}] as JSON on stdin; prints what static/js/fair.js's
// verify() says of each (the verify panel's verdict). argv[2]: fair.js copied as .mjs.
const { verify } = await import(process.argv[2]);

let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const c of JSON.parse(input)) {
  const seeds = c.server_seed ? { server_seed: c.server_seed } : {};
  const r = await verify(c.record, c.procedure, c.frames[0].view, seeds, c.frames);
  out.push({ commitment: r.commitment.ok, deal: r.deal.ok, mismatches: r.deal.mismatches,
    draws: r.draws });
}
process.stdout.write(JSON.stringify(out));
