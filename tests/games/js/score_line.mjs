// Reads [{win, spec}] as JSON on stdin; prints what static/js/score_line.js writes for each
// (scoreParts). argv[2]: the path of score_line.js copied as an ES module.
const { scoreParts } = await import(process.argv[2]);

let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((c) => scoreParts(c.win, c.spec));
process.stdout.write(JSON.stringify(out));
