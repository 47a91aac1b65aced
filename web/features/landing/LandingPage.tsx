import {
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { Link } from 'react-router';
import { PRICE_PER_DEPARTMENT_USD } from '../../../common/constants.ts';
import { paths } from '../../lib/paths.ts';
import { usePageTitle } from '../../lib/title.ts';
import classes from './LandingPage.module.css';

const FEATURES = [
  {
    title: 'Checklists that fit the job',
    text: 'Build cards of instructions and pass/fail checks in minutes, with rich text and N/A where a check does not apply.',
  },
  {
    title: 'A board for every site, line and area',
    text: 'Group cards onto boards. Everyone sees the latest results at a glance as a calendar of pass/fail squares.',
  },
  {
    title: 'Evaluate from a phone',
    text: 'Evaluators run a card on the spot with one thumb: Pass, Fail or N/A per item, then leave feedback.',
  },
  {
    title: 'Anonymous evaluations by QR code',
    text: 'Let visitors and contractors evaluate a board by scanning its QR code. The key rotates every hour.',
  },
  {
    title: 'Search and export',
    text: 'Find any evaluation or feedback by date, board, card or person, and export it to Excel.',
  },
  {
    title: 'Analytics for administrators',
    text: 'Dashboards of pass rates over days, weeks or months show where quality slips before it costs you.',
  },
];

function DemoBoard() {
  const rows = [
    { name: 'Line 1 start-up', squares: 'ppppfpppp' },
    { name: 'Forklift pre-use', squares: 'pppppppfp' },
    { name: 'Cold room', squares: 'pfpppppppp' },
  ];
  return (
    <Card withBorder shadow="sm" padding="lg" radius="md" aria-label="An example board" role="img">
      <Text fw={700} mb="sm">
        Packing Hall: This Month
      </Text>
      <Stack gap="sm">
        {rows.map((row) => (
          <div key={row.name}>
            <Text size="sm" mb={4}>
              {row.name}
            </Text>
            <Group gap={4}>
              {[...row.squares].map((s, i) => (
                <Box
                  key={i}
                  className={s === 'p' ? classes.pass : classes.fail}
                  ml={i > 0 && i % 3 === 0 ? 6 : 0}
                />
              ))}
            </Group>
          </div>
        ))}
      </Stack>
    </Card>
  );
}

export function LandingPage() {
  usePageTitle('');
  return (
    <>
      <Box className={classes.hero}>
        <Container size="lg" py={64}>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48}>
            <Stack gap="lg" justify="center">
              <Badge variant="filled" size="lg" w="fit-content">
                Quality inspections, made routine
              </Badge>
              <Title order={1} className={classes.title}>
                Every checklist, every line, every result in one place.
              </Title>
              <Text size="lg" c="dimmed">
                Checkboard gives your teams checklists they can run on a phone, and gives everyone a live
                board of pass/fail results for each site, line and area.
              </Text>
              <Group>
                <Button component={Link} to={paths.signup()} size="md">
                  Sign up
                </Button>
                <Button component={Link} to={paths.login()} size="md" variant="default">
                  Sign in
                </Button>
                <Anchor component={Link} to={paths.plans()} fw={500}>
                  See pricing
                </Anchor>
              </Group>
            </Stack>
            <DemoBoard />
          </SimpleGrid>
        </Container>
      </Box>

      <Container size="lg" py={48} id="about">
        <Title order={2} mb="xs">
          What Checkboard does
        </Title>
        <Text c="dimmed" mb="xl" maw={720}>
          Administrators build cards and put them on boards. Evaluators run them where the work happens.
          Everyone sees the results, and nobody chases paper.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          {FEATURES.map((feature) => (
            <Card key={feature.title} withBorder padding="lg">
              <ThemeIcon variant="light" size="lg" mb="sm" aria-hidden>
                ✓
              </ThemeIcon>
              <Title order={3} size="h4" mb={6}>
                {feature.title}
              </Title>
              <Text size="sm" c="dimmed">
                {feature.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>

      <Container size="lg" py={48} id="pricing">
        <Card withBorder padding="xl">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Stack gap="xs">
              <Title order={2}>Pricing</Title>
              <Text c="dimmed">
                One plan, priced by department: ${PRICE_PER_DEPARTMENT_USD} per department per month. Each
                department gives you a board and 15 cards, with unlimited users and evaluations.
              </Text>
            </Stack>
            <Group justify="flex-end" align="center">
              <Button component={Link} to={paths.plans()} size="md">
                Choose a plan
              </Button>
            </Group>
          </SimpleGrid>
        </Card>
      </Container>

      <Container size="lg" py={48}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Card withBorder padding="lg" id="documentation">
            <Title order={2} size="h3" mb="xs">
              Documentation
            </Title>
            <List size="sm" spacing={6}>
              <List.Item>Sign up, verify your email and choose the number of departments.</List.Item>
              <List.Item>Turn on Admin Mode from the menu, then create cards and boards.</List.Item>
              <List.Item>
                Invite your team from the Users tab as viewers, evaluators or administrators.
              </List.Item>
              <List.Item>Print a board&apos;s QR code to take anonymous evaluations on site.</List.Item>
            </List>
          </Card>
          <Card withBorder padding="lg" id="support">
            <Title order={2} size="h3" mb="xs">
              Support
            </Title>
            <Text size="sm" c="dimmed">
              Signed-in users find support from the menu. Lost your password?{' '}
              <Anchor component={Link} to={paths.requestPasswordReset()} underline="always">
                Reset it here
              </Anchor>
              .
            </Text>
          </Card>
        </SimpleGrid>
      </Container>

      <Box component="footer" py="lg" className={classes.footer}>
        <Container size="lg">
          <Text size="sm" c="dimmed">
            © {new Date().getFullYear()} Checkboard
          </Text>
        </Container>
      </Box>
    </>
  );
}
