#!/usr/bin/env node
// The FSRS optimizer in its own process (issue 19, decision 133): reads {"items": [[[rating, deltaT], …], …]}
// on standard input, prints {"parameters": [21 numbers]} on standard output. fsrs-rs (through
// @open-spaced-repetition/binding) aborts its process on a panic; here that ends this child, never the server.
import {
  computeParameters,
  FSRSBindingItem,
  FSRSBindingReview,
} from "@open-spaced-repetition/binding";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const { items } = JSON.parse(input);
const bindingItems = items.map(
  (reviews) => new FSRSBindingItem(reviews.map(([r, d]) => new FSRSBindingReview(r, d))),
);
const parameters = await computeParameters(bindingItems, { enableShortTerm: false });
process.stdout.write(JSON.stringify({ parameters }));
