import { memo, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Group, Image, NativeSelect, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { readingError } from '../../../machines/reading-edit.machine';
import { CANT_READ_CODES, COMMENT_CODES, previousReadingOf, type CantReadCode, type CommentCode, type MeterReading, type MeterReadingRecord, type Position } from '../../contract/route.schema';
import { needsConfirmation, plausibility } from '../../domain/meter-plausibility';
import { scalePhoto } from './photo';

const NA = 'N/A';
const codeData = (codes: readonly string[]) => [NA, ...codes].map((c) => ({ value: c, label: c }));

export interface RecordFormProps {
  reading: MeterReading;
  position: Position | null;
  now: () => number;
  onCapture: (body: MeterReadingRecord) => void;
}

/**
 * Recording one meter (issue 33): a value (an integer 0 to 9,999,999) or a can't-read code
 * (which clears the value and disables the comment code, as the spec's edit form does), comment
 * code, notes, service required, a photo scaled on the device, the time and the GPS position.
 * The consumption shows as it is typed; a negative or implausibly high one asks for a
 * confirmation and a photo.
 */
export const RecordForm = memo(function RecordForm({ reading, position, now, onCapture }: RecordFormProps) {
  const [value, setValue] = useState('');
  const [typed, setTyped] = useState('');
  const [cantRead, setCantRead] = useState<CantReadCode | null>(null);
  const [comment, setComment] = useState<CommentCode | null>(null);
  const [notes, setNotes] = useState('');
  const [service, setService] = useState(false);
  const [photo, setPhoto] = useState<MeterReadingRecord['photo'] & { width: number; height: number }>();
  const [photoError, setPhotoError] = useState<string | null>(null);
  const photoInput = useRef<HTMLInputElement>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [submitted, setSubmitted] = useState(false);

  const error = readingError({ value, cantReadCode: cantRead });
  const prev = previousReadingOf(reading);
  const p = !cantRead && !error && prev ? plausibility({ value: Number(value.trim()), previous: prev.value, previousAt: prev.date, recordedAt: now() }) : null;
  const confirm = p !== null && needsConfirmation(p);
  const blocked = error !== null || (confirm && (!confirmed || !photo));

  const pickCantRead = (code: string) => {
    if (code === NA) {
      setCantRead(null);
      setValue(typed); // N/A restores the value as it was typed
    } else {
      setCantRead(code as CantReadCode);
      setValue('');
      setComment(null);
    }
  };

  const takePhoto = async (file: File | undefined) => {
    setPhotoError(null);
    if (!file) return;
    try {
      setPhoto(await scalePhoto(file));
    } catch {
      setPhotoError('This photo could not be read. Please take it again.');
    }
  };

  const save = () => {
    setSubmitted(true);
    if (blocked) return;
    onCapture({
      value: cantRead ? null : Number(value.trim()),
      cantReadCode: cantRead,
      commentCode: cantRead ? null : comment,
      notes: notes.trim() ? notes : null,
      serviceRequired: service,
      photo: photo ? { contentType: photo.contentType, data: photo.data } : null,
      recordedAt: now(),
      position,
    });
  };

  return (
    <Stack gap="sm">
      <TextInput
        label="Reading"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        disabled={cantRead !== null}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setTyped(e.currentTarget.value);
          setConfirmed(false);
        }}
        error={submitted || value !== '' ? error : null}
        size="lg"
      />
      {p && p.kind !== 'no-previous' && (
        <Text size="sm" c={confirm ? 'red.8' : 'dimmed'} data-testid="consumption">
          Consumption {p.consumption.toLocaleString('en-NZ')} over {Math.round(p.days)} day{Math.round(p.days) === 1 ? '' : 's'}
        </Text>
      )}
      {confirm && (
        <Alert color="orange" title={p!.kind === 'negative' ? 'The reading is below the previous reading' : 'The consumption is unusually high'}>
          <Stack gap="xs">
            <Text size="sm">
              {p!.kind === 'negative'
                ? 'Check the meter again. If the reading is right, confirm it and take a photo of the meter.'
                : `More than three times the usual use for the period (${p!.kind === 'high' ? p!.limit.toLocaleString('en-NZ') : ''}). Check the meter again; if the reading is right, confirm it and take a photo.`}
            </Text>
            <Checkbox label="I have checked: the reading is right" checked={confirmed} onChange={(e) => setConfirmed(e.currentTarget.checked)} />
            {submitted && !photo && <Text size="sm" c="red.8">A photo of the meter is required for this reading.</Text>}
          </Stack>
        </Alert>
      )}
      {/* the phone's own pickers and a plain text area: the form is mounted afresh for every meter of the walk, and
          Mantine's Select (a popover positioned by floating-ui) and autosize (a measurement per render) cost a long task on a phone (bench/README.md, benchmark 20) */}
      <NativeSelect label="Can't read code" data={codeData(CANT_READ_CODES)} value={cantRead ?? NA} onChange={(e) => pickCantRead(e.currentTarget.value)} />
      <NativeSelect label="Comment code" data={codeData(COMMENT_CODES)} value={comment ?? NA} onChange={(e) => setComment(e.currentTarget.value === NA ? null : (e.currentTarget.value as CommentCode))} disabled={cantRead !== null} />
      <Textarea label="Notes" rows={3} maxLength={2000} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} />
      <Checkbox label="Service required" checked={service} onChange={(e) => setService(e.currentTarget.checked)} />
      <div style={{ position: 'relative' }}>
        <Text size="sm" fw={500} aria-hidden>
          Photo{confirm ? ' (required)' : ''}
        </Text>
        {/* the camera input itself, hidden behind a button of the app's own ("Choose File · No file chosen" is the desktop browser's) */}
        <input
          ref={photoInput}
          type="file"
          accept="image/*"
          capture="environment"
          aria-label={`Photo${confirm ? ' (required)' : ''}`}
          tabIndex={-1}
          onChange={(e) => void takePhoto(e.currentTarget.files?.[0])}
          style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
        />
        <Button variant="default" mt={4} onClick={() => photoInput.current?.click()}>
          {photo ? 'Take the photo again' : 'Take a photo'}
        </Button>
        {photoError && <Text size="sm" c="red.8">{photoError}</Text>}
        {photo && <Image src={`data:${photo.contentType};base64,${photo.data}`} alt="Photo of the meter" mah={160} w="auto" fit="contain" mt="xs" radius="sm" />}
      </div>
      <Text size="xs" c="dimmed">
        {position ? `Position ±${Math.round(position.accuracy ?? 0)} m` : 'No position (location off or not available)'}
      </Text>
      <Group justify="flex-end">
        <Button size="md" onClick={save} disabled={submitted && blocked}>
          Save reading
        </Button>
      </Group>
    </Stack>
  );
});
