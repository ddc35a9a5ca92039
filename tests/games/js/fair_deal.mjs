// Reads [{procedure, seeds, dealer}] as JSON on stdin; prints, for each, what
// static/js/fair.js computes: the commitment and the deal in tile notation.
// argv[2]: the path of fair.js copied as an ES module.
const { commitmentOf, deal, dealNotation } = await import(process.argv[2]);

let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const c of JSON.parse(input)) {
  const d = await deal(c.procedure, c.seeds, c.dealer);
  out.push({ commitment: await commitmentOf(c.seeds.server_seed), ...dealNotation(d) });
}
process.stdout.write(JSON.stringify(out));
