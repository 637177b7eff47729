"""The small SVG line chart of tiles held per player over the rounds (standings page). Every
coordinate is a locale-independent string (``svg_number``)."""

from web.presenters.numbers import svg_number as num

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 14, 34


def _y_ticks(top: int) -> list[int]:
    step = max(1, -(-top // 4))  # about four steps, whole numbers
    return list(range(0, top + 1, step))


def tiles_chart(history: list[tuple[str, list[dict]]], players) -> dict:
    """``history``: (x label, standings rows) oldest first; ``players``: who gets a line (and
    its colour). A player missing from a round's rows (joined later) has no point there."""
    labels = [label for label, _rows in history]
    held = [{row["player"]: row["tiles"] for row in rows} for _label, rows in history]
    top = max([1, *(n for column in held for n in column.values())])
    ticks = _y_ticks(top)
    top = max(top, ticks[-1])
    span_x = (WIDTH - LEFT - RIGHT) / max(1, len(labels) - 1)

    def x(index: int) -> str:
        return num(LEFT + index * span_x)

    def y(value: int) -> str:
        return num(HEIGHT - BOTTOM - value * (HEIGHT - TOP - BOTTOM) / top)

    series = []
    for player in players:
        dots = [{"x": x(i), "y": y(column[player.pk]), "value": column[player.pk],
                 "label": labels[i]}
                for i, column in enumerate(held) if player.pk in column]
        series.append({"player": player, "dots": dots,
                       "points": " ".join(f"{d['x']},{d['y']}" for d in dots)})
    return {"width": num(WIDTH), "height": num(HEIGHT), "series": series,
            "x_labels": [{"x": x(i), "y": num(HEIGHT - BOTTOM + 18), "text": text}
                         for i, text in enumerate(labels)],
            "y_ticks": [{"y": y(t), "value": t} for t in ticks],
            "left": num(LEFT), "axis_x": num(LEFT - 6), "right": num(WIDTH - RIGHT),
            "bottom": num(HEIGHT - BOTTOM), "top": num(TOP)}
