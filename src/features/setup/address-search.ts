import * as maplibregl from 'maplibre-gl';
import MaplibreGeocoder, { type MaplibreGeocoderApi } from '@maplibre/maplibre-gl-geocoder';
import '@maplibre/maplibre-gl-geocoder/dist/maplibre-gl-geocoder.css';
import { geocodeResponseSchema } from '../../contract/sensor.schema';
import { api } from '../../shared/api';

/** What the search box says when the bundled search (places only, no GEOCODER_URL) finds nothing. */
export const PLACES_ONLY_NO_RESULTS =
  'No town or city by that name. This search knows places, not street addresses: search for the nearest town, then click the map where the sensor is.';

/** Address suggestions from GET /api/geocode (DESIGN.md "Address search"), nearest the map's centre first. */
const geocoderApi = (map: maplibregl.Map, answered: (knows: 'places' | 'addresses' | undefined) => void): MaplibreGeocoderApi => ({
  forwardGeocode: async (config) => {
    const centre = map.getCenter();
    const { results, knows } = await api.get('/geocode', { query: { q: String(config.query ?? ''), lat: centre.lat, lng: centre.lng, limit: 5 }, schema: geocodeResponseSchema });
    answered(knows);
    return {
      type: 'FeatureCollection',
      features: results.map((r) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [r.longitude, r.latitude] },
        properties: {},
        text: r.label.split(',')[0],
        place_name: r.label,
        place_type: ['place'],
        center: [r.longitude, r.latitude],
      })),
    };
  },
});

/** The map's location search box: choosing a suggestion places the sensor there. */
export function addressSearch(onPlace: (latitude: number, longitude: number) => void) {
  return (map: maplibregl.Map) => {
    let knows: 'places' | 'addresses' | undefined;
    const geocoder = new MaplibreGeocoder(
      geocoderApi(map, (k) => (knows = k)),
      {
        maplibregl,
        placeholder: 'Search for an address or place',
        marker: false,
        showResultsWhileTyping: true,
        minLength: 2,
        debounceSearch: 250,
        flyTo: { zoom: 9, duration: 0 },
      },
    );
    geocoder.on('result', (e: { result: { center?: [number, number] } }) => {
      const c = e.result.center;
      if (c) onPlace(c[1], c[0]);
    });
    // the geocoder has just written its 'No results found': the bundled search says what it knows
    geocoder.on('results', (e: { features?: unknown[] }) => {
      if (knows !== 'places' || e.features?.length) return;
      const message = map.getContainer().querySelector('.maplibre-gl-geocoder--no-results');
      if (message) message.textContent = PLACES_ONLY_NO_RESULTS;
    });
    map.addControl(geocoder as unknown as maplibregl.IControl, 'top-left');
    return () => {
      map.removeControl(geocoder as unknown as maplibregl.IControl);
    };
  };
}
