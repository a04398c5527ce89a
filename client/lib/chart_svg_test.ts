import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { chartSvg } from "./chart_svg.ts";

/** The figure the renderer built, parsed, so its shapes can be measured. */
function figure(spec: unknown) {
  const html = chartSvg(JSON.stringify(spec));
  assert.ok(html, "a valid spec renders");
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const root = document.querySelector("figure.agent-chart");
  assert.ok(root);
  return root;
}

const num = (element: Element, name: string) => Number(element.getAttribute(name));

Deno.test("chart: a bar chart's bars stand on the zero line, their heights in proportion, labels below", () => {
  const chart = figure({
    type: "bar",
    title: "Sales",
    data: [{ label: "Q1", value: 3 }, { label: "Q2", value: 6 }],
  });
  assert.equal(chart.getAttribute("data-chart-type"), "bar");
  const svg = chart.querySelector("svg")!;
  assert.equal(svg.getAttribute("role"), "img");
  assert.equal(svg.getAttribute("aria-label"), "Sales");
  const bars = [...chart.querySelectorAll("rect")];
  assert.equal(bars.length, 2);
  const [q1, q2] = bars;
  assert.equal(num(q2, "height"), num(q1, "height") * 2);
  // Both end on the same baseline, the axis at zero.
  const axis = chart.querySelector("line")!;
  assert.equal(num(q1, "y") + num(q1, "height"), num(axis, "y1"));
  assert.equal(num(q2, "y") + num(q2, "height"), num(axis, "y1"));
  assert.ok(num(q1, "x") < num(q2, "x"), "in the data's order, left to right");
  assert.deepEqual([...chart.querySelectorAll("rect title")].map((title) => title.textContent), [
    "Q1: 3",
    "Q2: 6",
  ]);
  const texts = [...chart.querySelectorAll("text")].map((text) => text.textContent);
  assert.ok(texts.includes("Sales") && texts.includes("Q1") && texts.includes("Q2") && texts.includes("6"));
});

Deno.test("chart: negative values go below the zero line, which has the minimum labelled", () => {
  const chart = figure({ type: "bar", data: [{ label: "Loss", value: -2 }, { label: "Gain", value: 4 }] });
  const axis = num(chart.querySelector("line")!, "y1");
  const [loss, gain] = [...chart.querySelectorAll("rect")];
  assert.equal(num(loss, "y"), axis, "a negative bar hangs from the axis");
  assert.equal(num(gain, "y") + num(gain, "height"), axis);
  assert.equal(num(gain, "height"), num(loss, "height") * 2);
  const texts = [...chart.querySelectorAll("text")].map((text) => text.textContent);
  assert.ok(texts.includes("-2") && texts.includes("4"));
  // No title: the chart is named by its type.
  assert.equal(chart.querySelector("svg")!.getAttribute("aria-label"), "bar");
});

Deno.test("chart: a line chart joins its points in order, higher values higher up", () => {
  const chart = figure({
    type: "line",
    data: [{ label: "a", value: 1 }, { label: "b", value: 5 }, { label: "c", value: 2 }],
  });
  const points = chart.querySelector("polyline")!.getAttribute("points")!.split(" ").map((pair) =>
    pair.split(",").map(Number)
  );
  assert.equal(points.length, 3);
  assert.ok(points[0][0] < points[1][0] && points[1][0] < points[2][0]);
  assert.ok(points[1][1] < points[2][1] && points[2][1] < points[0][1], "SVG's y grows downwards");
  const circles = [...chart.querySelectorAll("circle")];
  assert.deepEqual(circles.map((circle) => [num(circle, "cx"), num(circle, "cy")]), points);
  assert.equal(chart.querySelectorAll("rect").length, 0);
});

Deno.test("chart: a pie's slices and legend give each share; one value fills the circle", () => {
  const chart = figure({
    type: "pie",
    title: "Fruit",
    data: [{ label: "Apples", value: 1 }, { label: "Pears", value: 3 }],
  });
  const slices = [...chart.querySelectorAll("path")];
  assert.equal(slices.length, 2);
  // The larger slice (over half) takes the large-arc flag.
  assert.match(slices[0].getAttribute("d")!, / 0 0 1 /);
  assert.match(slices[1].getAttribute("d")!, / 0 1 1 /);
  assert.notEqual(slices[0].getAttribute("fill"), slices[1].getAttribute("fill"));
  const legend = [...chart.querySelectorAll("text")].map((text) => text.textContent);
  assert.ok(legend.includes("Apples (25%)") && legend.includes("Pears (75%)"), legend.join("|"));

  const whole = figure({ type: "pie", data: [{ label: "All", value: 9 }, { label: "None", value: 0 }] });
  assert.equal(whole.querySelectorAll("svg > circle").length, 1);
  assert.ok([...whole.querySelectorAll("text")].some((text) => text.textContent === "All (100%)"));
});

Deno.test("chart: labels and titles are escaped; an invalid block is not a chart", () => {
  const html = chartSvg(JSON.stringify({
    type: "bar",
    title: '<script>alert("t")</script>',
    data: [{ label: "<img src=x onerror=alert(1)>", value: 1 }],
  }))!;
  assert.doesNotMatch(html, /<script|<img/);
  assert.match(html, /&lt;script&gt;alert\(&quot;t&quot;\)&lt;\/script&gt;/);

  assert.equal(chartSvg("not json"), null);
  assert.equal(chartSvg(JSON.stringify({ type: "radar", data: [{ label: "a", value: 1 }] })), null);
  assert.equal(chartSvg(JSON.stringify({ type: "bar", data: [] })), null);
  assert.equal(chartSvg(JSON.stringify({ type: "bar", data: [{ label: "a", value: "1" }] })), null);
});
