// A live batch's estimate as it ran, judged as a person watching it would: from the batch's first third
// on, each estimate given as a number within 20% (or 5 s, issue 60) of the time the batch then took. While a server's
// pace is being learned the estimate says so (`pace: "learning"`) and gives a person no number, and while
// the pace found is confirmed over a whole window its number says it holds only if the pace does (`pace:
// "confirming"`): such samples are counted, not judged.
type EstimateSample = { at: number; secondsLeft?: number; largest?: unknown; learning?: boolean; confirming?: boolean };

export function estimateRecorder() {
  const samples: EstimateSample[] = [];
  return {
    samples,
    onStatus(body: Record<string, unknown>) {
      const estimate = body.estimate as { seconds_left?: number; pace?: string } | undefined;
      samples.push({
        at: Date.now(),
        ...(estimate?.seconds_left === undefined ? {} : { secondsLeft: estimate.seconds_left }),
        ...(estimate?.pace === 'learning' ? { learning: true } : {}),
        // A number said to hold if the pace found is right, while a whole window confirms it.
        ...(estimate?.pace === 'confirming' ? { confirming: true } : {}),
        largest: (estimate as { largest?: unknown } | undefined)?.largest,
      });
    },
    /**
     * Call when the batch has ended. `from`: the share of the batch from which samples are judged (a third,
     * unless the pace was known before the batch began: then from the start).
     */
    judge({ from = 1 / 3 }: { from?: number } = {}) {
      const start = samples[0]!.at;
      const end = Date.now();
      const learning = samples.filter((sample) => sample.learning).length;
      const confirming = samples.filter((sample) => sample.confirming).length;
      // A batch has no estimate until the engine's next round queues it (a moment): from then on, one is due.
      const given = samples.find((sample) => sample.secondsLeft !== undefined || sample.learning)?.at ?? end;
      const judgedFrom = Math.max(given, start + (end - start) * from);
      const judged = samples
        .filter((sample) => sample.at >= judgedFrom && !sample.learning && !sample.confirming)
        .map((sample) => ({
          t: Math.round((sample.at - start) / 100) / 10,
          left: sample.secondsLeft,
          actual: Math.round((end - sample.at) / 100) / 10,
          largest: sample.largest,
        }));
      const off = judged.filter(
        (sample) =>
          sample.left === undefined || Math.abs(sample.left - sample.actual) > Math.max(5, sample.actual * 0.2),
      );
      return {
        within: judged.length > 0 && off.length === 0,
        took: (end - start) / 1000,
        judged: judged.length,
        learning,
        confirming,
        off,
      };
    },
  };
}
