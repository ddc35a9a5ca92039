// Calls that go up the table's module order (hand < actions < board < tools < room): a lower
// module that must reach a higher one calls it by name here, and table.js provides the
// functions once every module is loaded. So the modules' imports point one way.
const provided = {};

export function provide(functions) {
  Object.assign(provided, functions);
}

export function call(name, ...args) {
  return provided[name](...args);
}
