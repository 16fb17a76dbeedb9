// The data core, compiled to WebAssembly. Memory layout, formulas and algorithms: wasm-core/README.md.
export { alloc, free } from './memory';
export { sortChunk } from './sort';
export { storeNew, storeFree, storeLength, storeSegments, storeLowerBound, storeUpperBound, storeRead, storeMerge } from './store';
export { m4, m4TimeReads, storeView, viewRawPoints, viewMin, viewMax } from './m4';
export { setConversion, convertValue } from './convert';
export { setTimeZone, csvRows, usageDayRows, usageFillRows } from './csv';
export { sumColumns, streamFloor, copyBytes } from './floor';
export { councilRoom, councilResultRows, councilCsvRows } from './council';
export { usageVolume, usageFlow, usageSigma, usageNow, usageLastTime, usageFills, usagePoints, forecastDays, forecastRate, forecastSpread, forecastDaysUsed, forecastEarly, forecastLate } from './usage';

/** Proves the build chain end to end: AssemblyScript to .wasm to the worker. */
export function coreVersion(): i32 {
  return 2;
}
