/** How wide a chart's lines are drawn, from how dense its points are. */
/**
 * Lines 2 px wide, or 1 px once there are more points than half the plot's width in pixels. A dense line is no clearer
 * thick, and a canvas without a GPU (headless, or a machine without acceleration) strokes wider-than-1 px paths of
 * thousands of segments about 5x slower: 8 charts of 4 x 3,600 points took ~230 ms to draw at 2 px and ~45 ms at 1 px in
 * headless Chromium, while 240 points at 2 px took ~45 ms too.
 */
export const lineWidthFor = (points: number, plotWidth: number) => (points > plotWidth / 2 ? 1 : 2);
