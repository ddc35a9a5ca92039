// Records every text drawn on a canvas from now on: [text, left, right, top, bottom] in the
// canvas's own pixels (its scale undone), read back from window.__drawn. The 大结算 image's
// layout is checked from these: nothing outside the image, no two texts overlapping.
() => {
  window.__drawn = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    const m = this.measureText(text);
    const k = this.getTransform().a;
    window.__drawn.push({
      text: String(text), left: x, right: x + m.width, top: y - m.actualBoundingBoxAscent,
      bottom: y + m.actualBoundingBoxDescent, width: this.canvas.width / k,
      height: this.canvas.height / k,
    });
    return fill.call(this, text, x, y, ...rest);
  };
}
