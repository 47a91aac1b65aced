/**
 * The report of a completed evaluation (issue 13): download it as a PDF; administrators also make share
 * links that open it without signing in (shown once, revocable, with an optional expiry) and see the
 * links made so far (docs/decisions/0713).
 */
import {
  Badge,
  Button,
  CopyButton,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { api, type ReportLink } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { messageOf } from '../../lib/api.ts';
import { formatDateTime } from '../../shared/format.ts';
import { useRights } from '../../shared/permissions.ts';
import { ReportButton } from '../../shared/reports/ReportButton.tsx';
import { useAddReportLink, useReportLinks, useRevokeReportLink } from './api.ts';

const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never expires' },
  { value: '7', label: 'Expires in 7 days' },
  { value: '30', label: 'Expires in 30 days' },
  { value: '90', label: 'Expires in 90 days' },
];

function statusColor(status: ReportLink['status']) {
  return status === 'Active' ? 'green' : 'gray';
}

function ShareLinks({ evalID }: { evalID: number }) {
  const links = useReportLinks(evalID, true);
  const add = useAddReportLink(evalID);
  const revoke = useRevokeReportLink(evalID);
  const [expiry, setExpiry] = useState('never');
  const [made, setMade] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const make = async () => {
    setFailure(null);
    const days = expiry === 'never' ? null : Number(expiry);
    try {
      const answer = await add.mutateAsync({
        evalID,
        expiresAt: days === null ? null : new Date(Date.now() + days * 24 * 60 * 60_000).toISOString(),
      });
      setMade(answer.url);
    } catch (error) {
      setFailure(messageOf(error, api.addReportLink));
    }
  };

  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Share links
      </Title>
      <Text size="sm" c="dimmed">
        Anyone with a share link can open this report without signing in, until it expires or is revoked.
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Expiry"
          data={EXPIRY_CHOICES}
          value={expiry}
          onChange={(value) => setExpiry(value ?? 'never')}
          allowDeselect={false}
          w={200}
        />
        <Button onClick={make} loading={add.isPending}>
          Make share link
        </Button>
      </Group>
      {made && (
        <Stack gap={4}>
          <TextInput
            label="New share link (shown once: copy it now)"
            value={made}
            readOnly
            data-testid="share-link"
            onFocus={(event) => event.currentTarget.select()}
          />
          <Group gap="xs">
            <CopyButton value={made}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
            <Button size="xs" variant="subtle" onClick={() => setMade(null)}>
              Done
            </Button>
          </Group>
        </Stack>
      )}
      <ErrorText message={failure} />
      <ErrorText message={links.error && messageOf(links.error, api.getReportLinks)} />
      {links.data && links.data.links.length > 0 && (
        <Table.ScrollContainer minWidth={420}>
          <Table aria-label="Share links">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Link</Table.Th>
                <Table.Th>Made</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>
                  <span className="visually-hidden">Revoke</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {links.data.links.map((link) => (
                <Table.Tr key={link.id}>
                  <Table.Td>{link.prefix}…</Table.Td>
                  <Table.Td>{formatDateTime(link.createdTime)}</Table.Td>
                  <Table.Td>{link.expiresTime ? formatDateTime(link.expiresTime) : 'Never'}</Table.Td>
                  <Table.Td>
                    <Badge color={statusColor(link.status)} variant="light">
                      {link.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {link.status === 'Active' && (
                      <Button
                        size="xs"
                        variant="default"
                        color="red"
                        loading={revoke.isPending && revoke.variables?.id === link.id}
                        aria-label={`Revoke share link ${link.prefix}`}
                        onClick={async () => {
                          setFailure(null);
                          try {
                            await revoke.mutateAsync({ id: link.id });
                          } catch (error) {
                            setFailure(messageOf(error, api.revokeReportLink));
                          }
                        }}
                      >
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

export function ReportPanel({ evalID }: { evalID: number }) {
  const rights = useRights();
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Report
      </Title>
      <ReportButton evalID={evalID} />
      {rights.isAdmin && <ShareLinks evalID={evalID} />}
    </Stack>
  );
}
