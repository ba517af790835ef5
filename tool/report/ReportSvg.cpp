#include "report/ReportSvg.h"

#include "report/HtmlEscape.h"
#include "report/ReportModel.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace occlint {

namespace {

// The drawing's frame, in SVG user units.
constexpr double Width = 400, Height = 278;
constexpr double Left = 46, Right = 14, Top = 14, PlotHeight = 180;
constexpr double PlotWidth = Width - Left - Right;
constexpr double Bottom = Top + PlotHeight; // the x axis

// One decimal, without a trailing ".0": a page holds hundreds of charts.
std::string num(double V) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof Buffer, "%.1f", V);
  std::string Out = Buffer;
  if (Out.size() > 2 && Out.compare(Out.size() - 2, 2, ".0") == 0)
    Out.resize(Out.size() - 2);
  return Out == "-0" ? "0" : Out;
}

class Frame {
public:
  explicit Frame(const Staircase &S) : MinX(double(S.minX)), MaxX(double(std::max(S.maxX, S.minX + 1))) {}
  double x(double Value) const { return Left + (Value - MinX) / (MaxX - MinX) * PlotWidth; }
  static double y(double Occupancy) { return Bottom - Occupancy * PlotHeight; }

private:
  double MinX, MaxX;
};

std::string xLabel(StaircaseAxis Axis, int64_t Value) {
  if (Axis == StaircaseAxis::SharedMemory) // in KiB, as the axis title says
    return std::to_string(Value / 1024);
  return std::to_string(Value);
}

// Tick positions along the x axis: round values within [minX, maxX].
std::vector<int64_t> xTicks(const Staircase &S) {
  int64_t Step = 32;
  if (S.axis == StaircaseAxis::BlockSize)
    Step = 128;
  else if (S.axis == StaircaseAxis::PipelineStages)
    Step = S.maxX > 10 ? 2 : 1;
  else if (S.axis == StaircaseAxis::SharedMemory)
    Step = S.maxX > 128 * 1024 ? 32 * 1024 : 16 * 1024;
  std::vector<int64_t> Ticks;
  if (S.axis != StaircaseAxis::SharedMemory)
    Ticks.push_back(S.minX);
  for (int64_t V = (S.axis == StaircaseAxis::SharedMemory ? 0 : Step); V <= S.maxX; V += Step)
    if (V >= S.minX && (Ticks.empty() || V - Ticks.back() >= Step / 2))
      Ticks.push_back(V);
  // The right end, unless a tick sits close to it.
  if (S.maxX - Ticks.back() >= Step / 2)
    Ticks.push_back(S.maxX);
  return Ticks;
}

std::string pointLabel(const Staircase &S, const StaircasePoint &P) {
  const std::string X = S.axis == StaircaseAxis::SharedMemory ? reportBytes(P.x)
                        : S.axis == StaircaseAxis::Registers  ? std::to_string(P.x) + " registers"
                        : S.axis == StaircaseAxis::PipelineStages
                            ? std::to_string(P.x) + (P.x == 1 ? " stage" : " stages")
                            : std::to_string(P.x) + " threads";
  return X + ": " +
         (P.launches ? reportPercent(P.occupancy) + ", " + std::to_string(P.blocksPerSM) +
                           (P.blocksPerSM == 1 ? " block/SM" : " blocks/SM")
                     : std::string("cannot launch"));
}

} // namespace

std::string staircaseSvg(const Staircase &S) {
  const Frame F(S);
  const std::string Title = axisTitle(S.axis);
  std::string Out;
  auto Add = [&Out](const std::string &Text) { Out += Text; };

  Add("<svg class=\"staircase\" data-axis=\"" + escapeHtml(Title) + "\" width=\"" + num(Width) + "\" height=\"" +
      num(Height) + "\" viewBox=\"0 0 " + num(Width) + " " + num(Height) +
      "\" role=\"img\" aria-label=\"occupancy over " + escapeHtml(Title) +
      "\" font-family=\"sans-serif\" "
      "font-size=\"11\">\n");

  // The region where the curve assumes the shared-memory opt-in.
  if (S.optinAbove && *S.optinAbove < S.maxX) {
    const double X0 = F.x(double(*S.optinAbove)), X1 = F.x(double(S.maxX));
    Add("<rect class=\"optin\" x=\"" + num(X0) + "\" y=\"" + num(Top) + "\" width=\"" + num(X1 - X0) + "\" height=\"" +
        num(PlotHeight) + "\" fill=\"#f3e8c8\"><title>above " + reportBytes(*S.optinAbove) +
        " per block the launch needs (more) cudaFuncAttributeMaxDynamicSharedMemorySize</title></rect>\n");
    Add("<text x=\"" + num(X1 - 4) + "\" y=\"" + num(Top + 12) +
        "\" text-anchor=\"end\" fill=\"#7a5b00\">needs opt-in</text>\n");
  }

  // Grid and y axis: 0, 25, 50, 75, 100 %; each kind of line one path, each
  // kind of label one group (the same look in a fraction of the bytes).
  std::string Grid, Axes = "M" + num(Left) + " " + num(Top) + "V" + num(Bottom) + "H" + num(Left + PlotWidth);
  std::string YLabels;
  for (int P = 0; P <= 100; P += 25) {
    const double Y = F.y(P / 100.0);
    if (P > 0)
      Grid += "M" + num(Left) + " " + num(Y) + "H" + num(Left + PlotWidth);
    YLabels += "<text x=\"" + num(Left - 5) + "\" y=\"" + num(Y + 4) + "\">" + std::to_string(P) + "%</text>";
  }
  std::string XLabels;
  for (int64_t T : xTicks(S)) {
    const double X = F.x(double(T));
    Axes += "M" + num(X) + " " + num(Bottom) + "v4";
    XLabels += "<text x=\"" + num(X) + "\" y=\"" + num(Bottom + 16) + "\">" + xLabel(S.axis, T) + "</text>";
  }
  Add("<path d=\"" + Grid + "\" stroke=\"#ddd\"/>\n<path d=\"" + Axes + "\" stroke=\"#444\" fill=\"none\"/>\n");
  Add("<g fill=\"#444\" text-anchor=\"end\">" + YLabels + "</g>\n<g fill=\"#444\" text-anchor=\"middle\">" + XLabels +
      "</g>\n");
  Add("<g fill=\"#222\" text-anchor=\"middle\"><text class=\"axis-label\" transform=\"translate(11 " +
      num(Top + PlotHeight / 2) + ") rotate(-90)\">occupancy</text><text class=\"axis-label\" x=\"" +
      num(Left + PlotWidth / 2) + "\" y=\"" + num(Bottom + 32) + "\">" + escapeHtml(Title) + "</text></g>\n");

  // The curve: the value of a run holds up to its right end, so each step
  // rises or falls at the end of the run before it.
  const std::vector<StaircaseRun> Runs = S.runs();
  std::string Path;
  for (size_t I = 0; I < Runs.size(); ++I) {
    const double Y = F.y(Runs[I].occupancy);
    Path += I == 0 ? "M" + num(F.x(double(Runs[I].from))) + " " + num(Y) : " V" + num(Y);
    Path += " H" + num(F.x(double(Runs[I].to)));
  }
  Add("<path class=\"curve\" d=\"" + Path + "\" fill=\"none\" stroke=\"#1f6feb\" stroke-width=\"2\"/>\n");
  // Configurations that cannot launch at all: red on the axis.
  for (size_t I = 0; I < Runs.size(); ++I)
    if (!Runs[I].launches) {
      const double X0 = I == 0 ? F.x(double(Runs[I].from)) : F.x(double(Runs[I - 1].to));
      Add("<line class=\"cannot-launch\" x1=\"" + num(X0) + "\" y1=\"" + num(Bottom) + "\" x2=\"" +
          num(F.x(double(Runs[I].to))) + "\" y2=\"" + num(Bottom) +
          "\" stroke=\"#cf222e\" stroke-width=\"3\"><title>cannot launch</title></line>\n");
    }

  // The next step, then the launch on top of it.
  if (S.current && S.nextStep) {
    Add("<line class=\"step-arrow\" x1=\"" + num(F.x(double(S.current->x))) + "\" y1=\"" +
        num(F.y(S.current->occupancy)) + "\" x2=\"" + num(F.x(double(S.nextStep->x))) + "\" y2=\"" +
        num(F.y(S.nextStep->occupancy)) + "\" stroke=\"#1a7f37\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>\n");
  }
  if (S.nextStep)
    Add("<circle class=\"point-next\" cx=\"" + num(F.x(double(S.nextStep->x))) + "\" cy=\"" +
        num(F.y(S.nextStep->occupancy)) +
        "\" r=\"5.5\" fill=\"#ffffff\" stroke=\"#1a7f37\" stroke-width=\"2.5\"><title>next step: " +
        escapeHtml(pointLabel(S, *S.nextStep)) +
        (S.nextStepText.empty() ? "" : " (" + escapeHtml(S.nextStepText) + ")") + "</title></circle>\n");
  if (S.current)
    Add("<circle class=\"point-own\" cx=\"" + num(F.x(double(S.current->x))) + "\" cy=\"" +
        num(F.y(S.current->occupancy)) +
        "\" r=\"5\" fill=\"#cf222e\" stroke=\"#ffffff\" stroke-width=\"1\" data-launches=\"" +
        (S.current->launches ? "true" : "false") + "\"><title>this launch: " + escapeHtml(pointLabel(S, *S.current)) +
        "</title></circle>\n");

  // Legend, under the axis title.
  double LX = Left;
  const double LY = Bottom + 52;
  auto Entry = [&](const std::string &Mark, const std::string &Text, double TextWidth) {
    Add(Mark);
    Add("<text x=\"" + num(LX + 16) + "\" y=\"" + num(LY + 4) + "\" fill=\"#222\">" + escapeHtml(Text) + "</text>\n");
    LX += 16 + TextWidth;
  };
  Entry("<line x1=\"" + num(LX) + "\" y1=\"" + num(LY) + "\" x2=\"" + num(LX + 12) + "\" y2=\"" + num(LY) +
            "\" stroke=\"#1f6feb\" stroke-width=\"2\"/>",
        "occupancy", 62);
  if (S.current)
    Entry("<circle cx=\"" + num(LX + 6) + "\" cy=\"" + num(LY) + "\" r=\"4.5\" fill=\"#cf222e\"/>",
          "this launch (" +
              (S.current->launches ? (S.upperBound ? "≤ " : "") + reportPercent(S.current->occupancy)
                                   : std::string("cannot launch")) +
              ")",
          S.current->launches ? 112 : 140);
  else
    Entry("", "registers unknown", 100);
  if (S.nextStep)
    Entry("<circle cx=\"" + num(LX + 6) + "\" cy=\"" + num(LY) +
              "\" r=\"4.5\" fill=\"#ffffff\" stroke=\"#1a7f37\" stroke-width=\"2\"/>",
          "next step (" +
              (S.axis == StaircaseAxis::SharedMemory ? reportBytes(S.nextStep->x) : std::to_string(S.nextStep->x)) +
              ")",
          100);
  else
    Entry("", "no next step", 70);
  Add("</svg>\n");
  return Out;
}

} // namespace occlint
