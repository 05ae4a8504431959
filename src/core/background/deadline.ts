/**
 * Waits for `work` until `deadline` (epoch ms; undefined: for as long as it takes) and says whether
 * it finished; a failure of `work` before the deadline is thrown. What has not finished keeps
 * running: its caller leaves it (a shutdown leaves leased work to its lease).
 */
export async function settledBy(work: Promise<unknown>, deadline: number | undefined): Promise<boolean> {
  const done = work.then(() => true);
  if (deadline === undefined) return done;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}
